import { ownEntry } from '../../core/index.js';

/**
 * Colours of the report's series, fixed per name so a strategy or reward source has the same
 * colour in every chart. Okabe-Ito palette: distinguishable with the common colour-vision
 * deficiencies.
 */
export const SERIES_COLORS: Readonly<Record<string, string>> = {
  single: '#7f7f7f',
  rm: '#0072B2',
  'rm-topk-vote': '#56B4E9',
  'rm-adaptive': '#009E73',
  majority: '#E69F00',
  judge: '#D55E00',
  'plan-judge': '#CC79A7',
  oracle: '#1f2937',
  execution: '#E69F00',
  hybrid: '#009E73',
  model: '#0072B2',
  'plan-only': '#E69F00',
  'length-only': '#7f7f7f',
};

/** Colours for names without a fixed colour, in order. */
const FALLBACK_COLORS = ['#F0E442', '#332288', '#88CCEE', '#44AA99', '#117733', '#999933', '#AA4499'];

/** A Vega-Lite colour scale whose domain is `names` in order, with the fixed colours where known. */
export function colorScale(names: readonly string[]): { domain: string[]; range: string[] } {
  let fallback = 0;
  const range = names.map((name) => ownEntry(SERIES_COLORS, name) ?? (FALLBACK_COLORS[fallback++ % FALLBACK_COLORS.length] as string));
  return { domain: [...names], range };
}

