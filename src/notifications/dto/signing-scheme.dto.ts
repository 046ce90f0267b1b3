import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsIn } from 'class-validator';
import { SIGNING_SCHEMES, type SigningScheme } from '../notification.entity';

const SCHEME_RULE = `scheme must be one of: ${SIGNING_SCHEMES.join(', ')}`;

/** PUT /api/v1/notifications/{id}/signing-scheme (docs/reference/webhooks.md#13-standard-webhooks). */
export class PutSigningSchemeDto {
  @ApiProperty({
    enum: SIGNING_SCHEMES,
    description:
      'standard: each delivery also carries the Standard Webhooks headers (needs a whsec_ signing key); ' +
      "reference: the reference system's headers alone",
  })
  @IsDefined({ message: SCHEME_RULE })
  @IsIn(SIGNING_SCHEMES, { message: SCHEME_RULE })
  scheme: SigningScheme;
}

export class SigningSchemeResponse {
  @ApiProperty({ enum: SIGNING_SCHEMES })
  scheme: SigningScheme;
}
