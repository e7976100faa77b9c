import type { EvalReport } from './report';

/** What makes two reports parts of one eval: the same set, product, model, language, runs per kata and options. */
type EvalIdentityFields = Pick<
  EvalReport,
  'format' | 'version' | 'model' | 'provider' | 'language' | 'runs_per_kata' | 'set' | 'tdd_agent' | 'price' | 'options'
>;

/**
 * How `report` differs from `expected` as an eval (see {@link EvalIdentityFields}), in a few words naming both values,
 * or undefined when they are parts of the same eval (times, machine, concurrency, front end and runs may differ).
 * `sameModel: false` leaves out the model, provider and price: reports of several models that ran the same eval
 * compare.
 */
export function evalMismatch(report: EvalIdentityFields, expected: EvalIdentityFields, sameModel = true): string | undefined {
  const fields: Array<[string, unknown, unknown]> = [
    ['format', `${report.format} ${report.version}`, `${expected.format} ${expected.version}`],
    ['set digest', report.set.digest, expected.set.digest],
    ['katas', report.set.katas.join(','), expected.set.katas.join(',')],
    ['tdd-agent version', report.tdd_agent.version, expected.tdd_agent.version],
    ['language', report.language, expected.language],
    ['runs per kata', report.runs_per_kata, expected.runs_per_kata],
    ['options', JSON.stringify(report.options ?? {}), JSON.stringify(expected.options ?? {})],
    ...(sameModel
      ? ([
          ['model', `${report.provider} ${report.model}`, `${expected.provider} ${expected.model}`],
          ['price', JSON.stringify(report.price), JSON.stringify(expected.price)],
        ] as Array<[string, unknown, unknown]>)
      : []),
  ];
  const differing = fields.find(([, a, b]) => a !== b);
  return differing ? `${differing[0]} ${String(differing[1])}, not ${String(differing[2])}` : undefined;
}
