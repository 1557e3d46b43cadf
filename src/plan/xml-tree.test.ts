import { describe, expect, test } from 'vitest';
import { decodeXmlText, escapeStrayAngles, escapeXmlText } from './xml-tree.js';

describe('escapeStrayAngles', () => {
  test('keeps plain tags, comments and CDATA; escapes every other <', () => {
    expect(escapeStrayAngles('<agent_input>if a<b then x <= 3</agent_input>')).toBe('<agent_input>if a&lt;b then x &lt;= 3</agent_input>');
    expect(escapeStrayAngles('<br/> <to >B</to> <!-- c --> <![CDATA[x]]>')).toBe('<br/> <to >B</to> <!-- c --> <![CDATA[x]]>');
    expect(escapeStrayAngles('<a href="x">link</a> <3 < >')).toBe('&lt;a href="x">link</a> &lt;3 &lt; >');
    expect(escapeStrayAngles('')).toBe('');
  });

  test('leaves the inside of CDATA sections and comments alone', () => {
    expect(escapeStrayAngles('<i><![CDATA[x<3 & y>2]]> a<b</i>')).toBe('<i><![CDATA[x<3 & y>2]]> a&lt;b</i>');
    expect(escapeStrayAngles('<!-- if a<b --> c<d')).toBe('<!-- if a<b --> c&lt;d');
  });
});

describe('decodeXmlText', () => {
  test('decodes XML entities and keeps a bare &', () => {
    expect(decodeXmlText('AT&T &amp; &lt;b&gt; &quot;q&quot; &apos; &#65;&#x42; &foo; &#xZZ; &')).toBe('AT&T & <b> "q" \' AB &foo; &#xZZ; &');
  });

  test('an entity named like an Object property (&constructor;) is kept as written', () => {
    expect(decodeXmlText('x &constructor; &toString; &__proto__; y')).toBe('x &constructor; &toString; &__proto__; y');
  });

  test('unwraps CDATA and drops comments', () => {
    expect(decodeXmlText('a <![CDATA[<raw> & ]]> b <!-- note --> c <![CDATA[open')).toBe('a <raw> &  b  c open');
  });

  test('is the inverse of escapeXmlText', () => {
    const text = 'x < y && y > z; &lt; stays literal; <![CDATA[ no ]]> <!-- no -->';
    expect(decodeXmlText(escapeXmlText(text))).toBe(text);
  });
});
