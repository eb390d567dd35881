export * from 'src/modules/fixed-income/bond-math/accrued-interest';
export * from 'src/modules/fixed-income/bond-math/bond-price';
export * from 'src/modules/fixed-income/bond-math/bond-types';
export * from 'src/modules/fixed-income/bond-math/coupon-schedule';
export * from 'src/modules/fixed-income/bond-math/day-count';
export * from 'src/modules/fixed-income/bond-math/settlement';
export * from 'src/modules/fixed-income/bond-math/treasury-bill';
