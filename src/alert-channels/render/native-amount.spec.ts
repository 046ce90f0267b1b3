import fc from 'fast-check';
import { DECIMALS, nativeAmount as consoleAmount, type NetworkType } from '../../../console/src/amounts';
import { nativeAmount } from './native-amount';

describe('nativeAmount', () => {
  // 2^64 = 18446744073709551616 and beyond: no float could hold these digits.
  it.each([
    ['0', 18, '0'],
    ['1', 18, '0.000000000000000001'],
    ['40000000000000000', 18, '0.04'],
    ['1000000000000000000000', 18, '1,000'],
    ['18446744073709551616', 18, '18.446744073709551616'],
    ['123456789012345678901234567890', 18, '123,456,789,012.34567890123456789'],
    ['0', 9, '0'],
    ['1', 9, '0.000000001'],
    ['18446744073709551617', 9, '18,446,744,073.709551617'],
    ['5000000000', 9, '5'],
    ['0', 7, '0'],
    ['1', 7, '0.0000001'],
    ['340282366920938463463374607431768211456', 7, '34,028,236,692,093,846,346,337,460,743,176.8211456'],
    ['000012345678', 7, '1.2345678'],
    ['1234', 0, '1,234'],
  ])('writes %s base units with %i decimals as %s', (base, decimals, shown) => {
    expect(nativeAmount(base, decimals)).toBe(shown);
  });

  it.each(['', '-5', '1.5', '1e18', ' 1', '0x10'])('has no amount for %j', (base) => {
    expect(nativeAmount(base, 18)).toBeNull();
  });
});

describe('nativeAmount beside the console’s', () => {
  // Two implementations (the console's cannot be imported by the server build): they must not drift.
  it('writes every amount with the digits the console shows for its network type', () => {
    const types = Object.keys(DECIMALS) as NetworkType[];
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 256n }), fc.constantFrom(...types), (amount, type) => {
        expect(nativeAmount(amount.toString(), DECIMALS[type])).toBe(consoleAmount(amount.toString(), type));
      }),
      { numRuns: 500 },
    );
  });
});
