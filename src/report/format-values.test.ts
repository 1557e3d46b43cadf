import { describe, expect, test } from 'vitest';
import { escapeHtml } from './escape-html.js';
import { decimal, duration, percent, percentInterval, points, pointsInterval, tokens } from './format-values.js';

describe('format-values', () => {
  test('exact renderings', () => {
    expect([percent(0.4567), percent(1), percent(0)]).toEqual(['45.7%', '100.0%', '0.0%']);
    expect([points(0.052), points(-0.0101), points(0), points(-0.0001), points(0.0004)]).toEqual(['+5.2', '-1.0', '0.0', '0.0', '0.0']);
    expect(percentInterval([0.41, 0.52])).toBe('41.0–52.0%');
    expect(pointsInterval([-0.01, 0.08])).toBe('[-1.0, +8.0]');
    expect([tokens(1385.6), tokens(0), tokens(2_380_000), tokens(142_800_000)]).toEqual(['1,386', '0', '2.38M', '142.8M']);
    expect([decimal(2.3249), decimal(23.02, 1), decimal(0.0927, 3)]).toEqual(['2.32', '23', '0.093']);
    expect([duration(42_040), duration(214_380)]).toEqual(['42.0 s', '3 min 34 s']);
  });

  test('escapeHtml escapes the five HTML metacharacters and nothing else', () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp; ü</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp; ü&lt;/a&gt;');
  });
});
