import { Injectable } from '@nestjs/common';
import type { BodyRules, Checked, DtoCheck } from '../common/validation/dto-validation.pipe';
import { ReplayDeliveriesDto } from './dto/replay.dto';
import type { ReplayFilter } from './delivery-replays.repository';

/** What a replay asks for, the target aside. */
export type ReplayRequest = Omit<ReplayFilter, 'notificationId'>;

/** POST .../deliveries/replay: a window that ends where it starts matches nothing, so it is refused. */
@Injectable()
export class ReplayRules implements BodyRules<ReplayDeliveriesDto, ReplayRequest> {
  readonly dto = ReplayDeliveriesDto;

  check({ value, failed }: DtoCheck<ReplayDeliveriesDto>): Checked<ReplayRequest> {
    const since = failed.has('since') ? null : (value.since ?? null);
    const until = failed.has('until') ? null : (value.until ?? null);
    const problems = since && until && until <= since ? ['until must be later than since'] : [];
    return {
      value: { status: value.status, since, until, event: value.event ?? null },
      problems,
    };
  }
}
