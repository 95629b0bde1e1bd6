import { InsightsMath } from '@analytics/report-definitions';

/**
 * The math of insights over one period's numbers, in plain TypeScript (the reference). Periods with
 * no number give 0. Quantiles are ClickHouse's quantileExactInclusive, step for step: h = p·(n−1)+1,
 * interpolated between the neighbours of ⌊h⌋.
 */
export function quantileInclusive(sorted: readonly number[], level: number): number {
  const h = level * (sorted.length - 1) + 1;
  const n = Math.floor(h);
  if (n >= sorted.length) return sorted[sorted.length - 1];
  if (n < 1) return sorted[0];
  return sorted[n - 1] + (h - n) * (sorted[n] - sorted[n - 1]);
}

export function propertyMath(math: Exclude<InsightsMath, 'total' | 'unique'>, numbers: readonly number[]): number {
  if (numbers.length === 0) return 0;
  switch (math) {
    case 'sum':
      return numbers.reduce((a, b) => a + b, 0);
    case 'average':
      return numbers.reduce((a, b) => a + b, 0) / numbers.length;
    case 'min':
      return Math.min(...numbers);
    case 'max':
      return Math.max(...numbers);
    case 'median':
      return quantileInclusive(
        [...numbers].sort((a, b) => a - b),
        0.5,
      );
    case 'p90':
      return quantileInclusive(
        [...numbers].sort((a, b) => a - b),
        0.9,
      );
  }
}

/** The same math as a ClickHouse aggregate over `v` (a Float64) where `isNumber` holds; unique counts count `user`. */
export function propertyMathSql(math: InsightsMath): string {
  const none = 'countIf(isNumber) = 0';
  switch (math) {
    case 'total':
      return 'toFloat64(count())';
    case 'unique':
      return 'toFloat64(uniqExact(user))';
    case 'sum':
      return 'sumIf(v, isNumber)';
    case 'average':
      return `if(${none}, 0, sumIf(v, isNumber) / countIf(isNumber))`;
    case 'min':
      return `if(${none}, 0, minIf(v, isNumber))`;
    case 'max':
      return `if(${none}, 0, maxIf(v, isNumber))`;
    case 'median':
      return `if(${none}, 0, quantileExactInclusiveIf(0.5)(v, isNumber))`;
    case 'p90':
      return `if(${none}, 0, quantileExactInclusiveIf(0.9)(v, isNumber))`;
  }
}
