#!/usr/bin/env python3
"""Builds orchrm's MAS-Orchestra conformance corpus (src/plan/test-fixtures/conformance/).

Plans: every plan example in the reference's published prompts, LLM-style variations of them,
mutations and truncations. For each text it records

- `reference`: what the reference would run, read by running its own parser modules
  (harmony_parser/medium.py or minimal.py, read from a MAS-Orchestra checkout at run time; see
  reference_parser.py) plus the checks its generated code makes when it runs (agent names,
  debate roles);
- `expected`: what orchrm must read, from the reference's reading and orchrm's documented
  rules (docs/plan-format.md), never from running orchrm;
- `deviations`: the documented differences that apply (empty when orchrm reads what the
  reference runs).

Usage: python3 generate_corpus.py <MAS-Orchestra git dir> <output folder>
(writes prompts.jsonl, variations.jsonl, mutations.jsonl and truncations.jsonl)
"""
import json
import re
import sys

import prompt_examples
import reference_parser as reference

ID = re.compile(r'^[A-Za-z0-9_][A-Za-z0-9_-]{0,63}$')


# --- orchrm's rules as documented (docs/plan-format.md), on a plain graph ----------------

def references(text):
    """Bodies of `${...}`: up to the first `}` within 128 characters, trimmed."""
    found = []
    start = text.find('${')
    while start != -1:
        close = text[start + 2:start + 2 + 128].find('}')
        if close != -1:
            found.append(text[start + 2:start + 2 + close].strip())
        start = text.find('${', start + 2)
    return found


def linked(nodes, edges):
    """Written edges plus X -> Y for each `${X}` in Y naming another node."""
    ids = {node['id'] for node in nodes}
    out = [list(edge) for edge in edges]
    keys = {tuple(edge) for edge in out}
    for node in nodes:
        for ref in dict.fromkeys(references(node['input'])):
            if ref in ids and ref != node['id'] and (ref, node['id']) not in keys:
                keys.add((ref, node['id']))
                out.append([ref, node['id']])
    return out


def flow(nodes):
    ids = {node['id'] for node in nodes}
    return {node['id']: sorted({ref for ref in references(node['input']) if ref in ids and ref != node['id']}) for node in nodes}


def sinks(nodes, edges):
    has_out = {edge[0] for edge in edges}
    return [node['id'] for node in nodes if node['id'] not in has_out]


def has_cycle(nodes, edges):
    ids = [node['id'] for node in nodes]
    indegree = {i: 0 for i in ids}
    succ = {i: [] for i in ids}
    for a, b in edges:
        if a in succ and b in indegree:
            succ[a].append(b)
            indegree[b] += 1
    queue = [i for i in ids if indegree[i] == 0]
    seen = 0
    while queue:
        current = queue.pop()
        seen += 1
        for nxt in succ[current]:
            indegree[nxt] -= 1
            if indegree[nxt] == 0:
                queue.append(nxt)
    return seen != len(ids)


def graph(nodes, edges, answer=None):
    """The expected orchrm graph: edges linked, deduplicated and sorted."""
    all_edges = sorted({tuple(edge) for edge in linked(nodes, edges)})
    if answer is None:
        found = sinks(nodes, [list(edge) for edge in all_edges])
        answer = found[0] if len(found) == 1 else None
    out_nodes = []
    for node in nodes:
        entry = {'id': node['id'], 'agent': node['agent'], 'input': node['input']}
        if node.get('roles') is not None and node['agent'] == 'debate':
            entry['roles'] = node['roles']
        out_nodes.append(entry)
    return {'verdict': 'runs', 'nodes': out_nodes, 'edges': [list(edge) for edge in all_edges], 'answer': answer, 'flow': flow(nodes)}


def refuses(*codes):
    """A refusal whose diagnostics include at least `codes` (any refusal when none are given)."""
    return {'verdict': 'refuses', 'codes': sorted(set(codes))}


def reference_graph(ref):
    """The reference's reading as plain nodes and edges (orchrm kinds)."""
    nodes = []
    for node in ref['nodes']:
        nodes.append({'id': node['id'], 'agent': node['agent'], 'input': node['input'], 'roles': node.get('roles')})
    return nodes, [list(edge) for edge in ref['edges']]


def reference_flow_differs(ref, nodes):
    """Whether orchrm substitutes other references than the reference run does."""
    if 'substituted' not in ref:
        return False
    expected = flow(nodes)
    if len(ref['nodes']) == 1:
        return bool(expected[ref['nodes'][0]['id']])
    return any(sorted(ref['substituted'].get(node_id, [])) != refs for node_id, refs in expected.items())


# --- plans as text -----------------------------------------------------------------------

AGENT_BLOCK = re.compile(r'<agent>.*?</agent>', re.DOTALL)


def agents_of(text):
    return [m for m in AGENT_BLOCK.finditer(text)]


def replace_ids(text, mapping):
    """Renames ids in <agent_id>, <from>, <to> and ${...}."""
    def tag(name):
        return lambda m: f'<{name}>{mapping.get(m.group(1).strip(), m.group(1).strip())}</{name}>'
    for name in ('agent_id', 'from', 'to'):
        text = re.sub(rf'<{name}>(.*?)</{name}>', tag(name), text, flags=re.DOTALL)
    return re.sub(r'\$\{([^}]*)\}', lambda m: '${' + mapping.get(m.group(1), m.group(1)) + '}', text)


def map_graph(nodes, edges, mapping):
    out = []
    for node in nodes:
        renamed = dict(node)
        renamed['id'] = mapping.get(node['id'], node['id'])
        renamed['input'] = re.sub(r'\$\{([^}]*)\}', lambda m: '${' + mapping.get(m.group(1), m.group(1)) + '}', node['input'])
        out.append(renamed)
    return out, [[mapping.get(a, a), mapping.get(b, b)] for a, b in edges]


def to_json_plan(nodes, edges, thinking, variant):
    kind_names = {'cot': 'CoTAgent', 'sc': 'SCAgent', 'reflexion': 'ReflexionAgent', 'debate': 'DebateAgent', 'search': 'WebSearchAgent'}
    if variant == 'canonical':
        plan = {'dom': 'high' if len(nodes) > 1 else 'low', 'thinking': thinking, 'nodes': [], 'edges': [{'from': a, 'to': b} for a, b in edges]}
        for node in nodes:
            entry = {'id': node['id'], 'agent': node['agent'], 'input': node['input']}
            if node['agent'] == 'debate':
                entry['params'] = {'roles': node['roles']}
            plan['nodes'].append(entry)
        return '```json\n' + json.dumps(plan, indent=2, ensure_ascii=False) + '\n```'
    # The reference's own vocabulary as JSON keys, edges as [from, to] pairs.
    plan = {'agents': [], 'edges': [[a, b] for a, b in edges]}
    for node in nodes:
        entry = {'agent_id': node['id'], 'agent_name': kind_names[node['agent']], 'required_arguments': {'agent_input': node['input']}}
        if node['agent'] == 'debate':
            entry['required_arguments']['debate_roles'] = node['roles']
        plan['agents'].append(entry)
    return 'Here is the plan as JSON:\n' + json.dumps(plan, ensure_ascii=False)


def thinking_of(text):
    match = re.search(r'<thinking>(.*?)</thinking>', text, re.DOTALL)
    return match.group(1).strip() if match else ''


# --- the corpus ----------------------------------------------------------------------------

CASES = []


def slim(ref, expected):
    """The reference's reading, stored compactly: node inputs equal to the expected ones are left out."""
    out = {key: value for key, value in ref.items() if key not in ('order', 'skipped_agents', 'duplicate_ids') or value}
    if 'nodes' in ref:
        wanted = {node['id']: node['input'] for node in expected.get('nodes', [])}
        out['nodes'] = []
        for node in ref['nodes']:
            entry = {'id': node['id'], 'agent': node.get('agent', node['name'])}
            if wanted.get(node['id']) != node['input']:
                entry['input'] = node['input']
            if 'roles' in node:
                entry['roles'] = node['roles']
            out['nodes'].append(entry)
    return out


def add(case_id, origin, parser, text, expected, deviations=(), note=''):
    ref = slim(reference.read(text, parser), expected)
    CASES.append({'id': case_id, 'origin': origin, 'parser': parser, 'text': text, 'reference': ref, 'expected': expected, 'deviations': sorted(set(deviations)), **({'note': note} if note else {})})


def expected_from_reference(ref):
    """orchrm's reading of a plan the reference runs: the reference graph with its references linked."""
    if 'direct' in ref:
        return {'verdict': 'runs', 'direct': ref['direct']}, []
    nodes, edges = reference_graph(ref)
    if ref.get('duplicate_ids'):
        return refuses('duplicate_id'), ['duplicate_id']
    if any(not ID.match(node['id']) for node in nodes):
        return refuses('schema'), ['invalid_id']
    if ref.get('skipped_agents'):
        return refuses(), ['dropped_agent']
    link = linked(nodes, edges)
    if has_cycle(nodes, link):
        return refuses('cycle'), ['ref_against_flow']
    deviations = []
    if {tuple(edge) for edge in link} != {tuple(edge) for edge in edges}:
        deviations.append('ref_edge_added')
    elif reference_flow_differs(ref, nodes):
        deviations.append('spaced_reference')
    return graph(nodes, edges, answer=None if len(nodes) > 1 else ref['sink']), deviations


LIGHT_VARIATIONS = {'fence', 'unclosed_thinking', 'digit_ids', 'json', 'extra_tags', 'edges_bare', 'cdata_inputs', 'compact', 'quoted_empty_input'}
LIGHT_CUTS = {'in_agent_input', 'after_second_agent', 'in_edge_list', 'in_tag'}
MUTATED_IGSM = {'prompt/propose_harmony_medium_igsm_breadth_parallel_prompt/base/3'}


def main():
    prompts = prompt_examples.collect()
    bases = []
    for example in prompts:
        if example['duplicate']:
            continue
        parser = 'minimal' if any(word in example['file'] for word in ('minmal', 'minimal', 'direct.py')) else 'medium'
        case_id = f"prompt/{example['file'].split('/')[-1][:-3]}/{example['variable']}/{example['index']}"
        text = example['text']
        ref = reference.read(text, parser)
        if ref['verdict'] == 'runs':
            expected, deviations = expected_from_reference(ref)
        else:
            expected, deviations = prompt_refusal(case_id, text, ref)
        add(case_id, 'prompt', parser, text, expected, deviations)
        if ref['verdict'] == 'runs' or case_id.endswith('propose_harmony_medium/base/9'):
            bases.append((case_id, parser, text, ref))
    for case_id, parser, text, ref in bases:
        # The long IGSM examples get a few variations and cuts each, to keep the corpus small.
        light = 'igsm' in case_id and len(text) > 1500
        variations(case_id, parser, text, ref, LIGHT_VARIATIONS if light else None)
        if parser == 'medium' and len(ref.get('nodes', [])) > 1 and (not light or case_id in MUTATED_IGSM):
            mutations(case_id, text, ref)
        truncations(case_id, parser, text, ref, LIGHT_CUTS if light else None)
    out = sys.argv[2] if len(sys.argv) > 2 else '.'
    for origin in ('prompt', 'variation', 'mutation', 'truncation'):
        with open(f'{out}/{origin}s.jsonl', 'w') as handle:
            for case in CASES:
                if case['origin'] == origin:
                    handle.write(json.dumps(case, ensure_ascii=False) + '\n')


def prompt_refusal(case_id, text, ref):
    """orchrm's reading of a prompt plan the reference does not run."""
    if case_id.endswith('propose_harmony_medium/base/9'):
        # The diamond example: <from>/<to> written without an <edge> wrapper.
        model = reference.read_medium(text.replace('<from>SEARCH</from><to>ASIA</to>', '<edge><from>SEARCH</from><to>ASIA</to>') + '\n</edge>')
        nodes, edges = reference_graph(model)
        return graph(nodes, edges), ['edge_without_wrapper', 'ref_edge_added']
    if '<agent_id>...</agent_id>' in text or '<agent_name>...</agent_name>' in text:
        return refuses('unknown_agent', 'schema'), []
    if 'FINAL</agent_id>' in text and text.count('<agent_id>FINAL</agent_id>') == 2:
        # Two agents and no <edge> block at the end of the text: read as cut off before its edges.
        return refuses('truncated'), []
    if '<agent>' not in text:
        return refuses('schema', 'dangling_edge'), []
    return refuses('dangling_edge'), []


def variation_cases(parser, text, ref):
    """(name, text, how the expected graph changes) for a plan the reference runs."""
    out = []
    out.append(('fence', '```xml\n' + text.strip() + '\n```', None))
    out.append(('prose', 'Here is my plan for this question.\n\n' + text.strip() + '\n\nThe final agent produces the answer.', None))
    out.append(('crlf', text.replace('\n', '\r\n'), 'crlf'))
    out.append(('compact', re.sub(r'>\s+<', '><', text.strip()), 'compact'))
    out.append(('blank_lines', re.sub(r'(</agent>)', r'\1\n\n\t', text), None))
    out.append(('upper_tags', re.sub(r'<(/?)(agent_id|agent_name|agent_input|required_arguments)>', lambda m: f'<{m.group(1)}{m.group(2).upper()}>', text), None))
    if '<thinking>' in text:
        out.append(('no_thinking', re.sub(r'\s*<thinking>.*?</thinking>\s*', '\n', text, flags=re.DOTALL), None))
        out.append(('unclosed_thinking', text.replace('</thinking>', '', 1), None))
        out.append(('think_block', '<think>\nThe user wants a plan. Let me write it.\n</think>\n' + text, None))
    out.append(('reasoning_prefix', 'analysis The question needs a plan with agents.assistantfinal' + text.strip(), None))
    out.append(('field_order', re.sub(r'(<agent_id>.*?</agent_id>)(\s*)(<agent_name>.*?</agent_name>)', r'\3\2\1', text, flags=re.DOTALL), None))
    out.append(('description_last', re.sub(r'(\s*<agent_description>.*?</agent_description>)(\s*<required_arguments>.*?</required_arguments>)', r'\2\1', text, flags=re.DOTALL), None))
    if '<agent_input></agent_input>' in text:
        out.append(('quoted_empty_input', text.replace('<agent_input></agent_input>', '<agent_input>""</agent_input>'), None))
        out.append(('spaced_empty_input', text.replace('<agent_input></agent_input>', '<agent_input>\n   \n</agent_input>'), None))
    out.append(('extra_tags', text.replace('</agent_description>', '</agent_description>\n    <agent_model>gpt-oss-120b</agent_model>\n    <tools>["python"]</tools>'), None))
    out.append(('extra_arguments', text.replace('</required_arguments>', '  <temperature_hint>low</temperature_hint>\n    </required_arguments>'), None))
    out.append(('lowercase_names', re.sub(r'<agent_name>(\w+)</agent_name>', lambda m: f'<agent_name>{m.group(1).lower()}</agent_name>', text), 'lowercase'))
    out.append(('answer_tag', text.rstrip() + f"\n<answer>{ref.get('sink', '')}</answer>", None))
    out.append(('dom_tag', '<dom>' + ('high' if len(ref.get('nodes', [])) > 1 else 'low') + '</dom>\n' + text, None))
    if ref.get('nodes') and any(n['input'] for n in ref['nodes']):
        # Only inputs closed within their agent are wrapped (two prompt examples leave theirs open).
        out.append(('cdata_inputs', re.sub(r'<agent_input>((?:(?!</?agent_input>|</?agent>|</required_arguments>).)+?)</agent_input>', lambda m: f'<agent_input><![CDATA[{m.group(1)}]]></agent_input>', text, flags=re.DOTALL), 'cdata'))
    if parser == 'medium' and ref.get('nodes'):
        ids = [node['id'] for node in ref['nodes']]
        out.append(('digit_ids', replace_ids(text, {old: str(index + 1) for index, old in enumerate(ids)}), ('ids', {old: str(index + 1) for index, old in enumerate(ids)})))
        out.append(('mixed_ids', replace_ids(text, {old: f'{index + 1}{"abcdefgh"[index % 8]}' for index, old in enumerate(ids)}), ('ids', {old: f'{index + 1}{"abcdefgh"[index % 8]}' for index, old in enumerate(ids)})))
        if ref.get('edges'):
            edge_lines = ''.join(f'<edge><from>{a}</from><to>{b}</to></edge>\n' for a, b in ref['edges'])
            out.append(('edge_per_block', re.sub(r'<edge>.*?</edge>', edge_lines, text, flags=re.DOTALL), 'edge_blocks'))
            edge_lines = ''.join(f'  <to>{b}</to>\n  <from>{a}</from>\n' for a, b in reversed(ref['edges']))
            out.append(('edges_reversed_lines', re.sub(r'<edge>.*?</edge>', '<edge>\n' + ''.join(f'  <from>{a}</from>\n  <to>{b}</to>\n' for a, b in reversed(ref['edges'])) + '</edge>', text, flags=re.DOTALL), None))
            out.append(('edges_bare', re.sub(r'<edge>(.*?)</edge>', r'\1', text, flags=re.DOTALL), 'bare_edges'))
        out.append(('json', to_json_plan(reference_graph(ref)[0], ref['edges'], thinking_of(text), 'canonical'), 'json'))
        out.append(('json_reference_keys', to_json_plan(reference_graph(ref)[0], ref['edges'], thinking_of(text), 'reference'), 'json'))
    if 'direct' in ref:
        generic = {'fence', 'prose', 'crlf', 'compact', 'no_thinking', 'unclosed_thinking', 'think_block', 'reasoning_prefix', 'upper_tags', 'dom_tag'}
        out = [entry for entry in out if entry[0] in generic]
    elif parser == 'minimal':
        out = [entry for entry in out if entry[0] != 'answer_tag']
    return out


def variations(case_id, parser, text, ref, only=None):
    if ref['verdict'] != 'runs':
        return
    for name, varied, how in variation_cases(parser, text, ref):
        if varied == text or (only is not None and name not in only):
            continue
        vref = reference.read(varied, parser)
        deviations = []
        if 'direct' in ref:
            expected = {'verdict': 'runs', 'direct': ref['direct']}
        else:
            nodes, edges = reference_graph(ref)
            if isinstance(how, tuple) and how[0] == 'ids':
                nodes, edges = map_graph(nodes, edges, how[1])
            if how == 'crlf':
                nodes = [{**node, 'input': node['input'].replace('\n', '\r\n')} for node in nodes]
            if how == 'compact':
                nodes = [{**node, 'input': re.sub(r'>\s+<', '><', node['input'])} for node in nodes]
            if parser == 'minimal':
                expected = graph(nodes, [], answer=ref['sink'])
            else:
                expected = graph(nodes, edges)
            if {tuple(e) for e in linked(nodes, edges)} != {tuple(e) for e in edges}:
                deviations.append('ref_edge_added')
            if how == 'cdata':
                deviations.append('xml_text_decoded')
            if how == 'edge_blocks':
                deviations.append('multiple_edge_blocks')
            if how == 'bare_edges':
                deviations.append('edge_without_wrapper')
            if how == 'json':
                deviations.append('json_plan')
            if how == 'lowercase' and parser == 'minimal':
                deviations.append('agent_name_case')
            if name == 'think_block' and parser == 'minimal':
                pass
        if vref['verdict'] == 'runs':
            vexpected, vdeviations = expected_from_reference(vref)
            if vexpected == expected:
                deviations = vdeviations
            elif not deviations:
                raise SystemExit(f'{case_id}/{name}: the reference reads another graph than the base: {json.dumps(vexpected)[:600]} vs {json.dumps(expected)[:600]}')
        elif not deviations:
            deviations.append(tolerance_for(name))
        add(f'{case_id}/{name}', 'variation', parser, varied, expected, deviations)


def tolerance_for(name):
    """Why orchrm reads a variation the reference does not run (a KeyError: none documented)."""
    return {
        'upper_tags': 'tag_case',
        'crlf': 'crlf',
        'reasoning_prefix': 'prose_around',
        'extra_tags': 'ignored_tags',
        'extra_arguments': 'ignored_tags',
        'lowercase_names': 'agent_name_case',
        'answer_tag': 'answer_tag',
        'dom_tag': 'dom_tag',
        'description_last': 'field_order',
        'field_order': 'field_order',
        'quoted_empty_input': 'empty_input',
        'spaced_empty_input': 'empty_input',
        'think_block': 'prose_around',
    }[name]


def mutations(case_id, text, ref):
    nodes, edges = reference_graph(ref)
    ids = [node['id'] for node in nodes]
    edge_block = re.search(r'<edge>.*?</edge>', text, re.DOTALL)
    referenced_edges = [e for e in edges if '${' + e[0] + '}' in next(n['input'] for n in nodes if n['id'] == e[1])]
    blocks = agents_of(text)

    def mut(name, mutated, expected, deviations=(), note=''):
        add(f'{case_id}/{name}', 'mutation', 'medium', mutated, expected, list(deviations), note)

    if edge_block and referenced_edges:
        # An edge dropped whose target uses ${source}: orchrm adds it back.
        a, b = referenced_edges[-1]
        dropped = re.sub(rf'\s*<from>{re.escape(a)}</from>\s*<to>{re.escape(b)}</to>', '', text, count=1)
        if dropped != text:
            mut('edge_dropped_reference_kept', dropped, graph(nodes, edges), ['ref_edge_added'])
    if edge_block and len(ids) >= 3:
        # An extra edge with no ${} in its target: it only orders execution.
        sink = ref['sink']
        order = ref['order']
        pair = next(((order[i], order[j]) for i in range(len(order)) for j in range(i + 1, len(order)) if order[i] != sink and [order[i], order[j]] not in edges), None)
        if pair:
            added = text.replace('</edge>', f'<from>{pair[0]}</from><to>{pair[1]}</to>\n</edge>', 1)
            mut('edge_without_reference', added, graph(nodes, edges + [list(pair)]))
    # A ${} removed, its edge kept: the target runs after the source without seeing it.
    if referenced_edges:
        a, b = referenced_edges[0]
        target = next(n for n in nodes if n['id'] == b)
        new_input = target['input'].replace('${' + a + '}', f'the result of {a}')
        removed = text.replace(target['input'], new_input, 1) if target['input'] in text else None
        if removed and removed != text:
            changed = [dict(n, input=new_input) if n['id'] == b else n for n in nodes]
            mut('reference_without_edge_use', removed, graph(changed, edges))
    if edge_block:
        duplicated = text.replace('</edge>', f'<from>{edges[0][0]}</from><to>{edges[0][1]}</to>\n</edge>', 1)
        mut('duplicate_edge', duplicated, graph(nodes, edges))
        unbalanced = re.sub(r'<to>[^<]*</to>', '', text[edge_block.start():edge_block.end()], count=1)
        mut('unbalanced_edges', text[:edge_block.start()] + unbalanced + text[edge_block.end():], refuses('unbalanced_edge'), ['unbalanced_edge'] if reference.read_medium(text[:edge_block.start()] + unbalanced + text[edge_block.end():])['verdict'] == 'runs' else [])
        self_loop = text.replace('</edge>', f'<from>{ids[0]}</from><to>{ids[0]}</to>\n</edge>', 1)
        mut('self_loop', self_loop, refuses('cycle'))
        cycle = text.replace('</edge>', f'<from>{ref["sink"]}</from><to>{ref["order"][0]}</to>\n</edge>', 1)
        mut('cycle', cycle, refuses('cycle'))
        dangling = text.replace('</edge>', f'<from>{ref["sink"]}</from><to>GHOST</to>\n</edge>', 1)
        mut('dangling_edge', dangling, refuses('dangling_edge'))
    extra = '\n<agent>\n  <agent_id>EXTRA</agent_id>\n  <agent_name>CoTAgent</agent_name>\n  <required_arguments><agent_input>Summarise the question.</agent_input></required_arguments>\n</agent>\n'
    mut('isolated_agent', text.replace(blocks[-1].group(0), blocks[-1].group(0) + extra, 1), refuses('multiple_sinks'))
    first = blocks[0].group(0)
    mut('unknown_agent_name', text.replace(first, re.sub(r'<agent_name>.*?</agent_name>', '<agent_name>PlannerAgent</agent_name>', first, count=1), 1), refuses('unknown_agent'))
    mut('alias_agent_name', text.replace(first, re.sub(r'<agent_name>.*?</agent_name>', '<agent_name>ChainOfThought</agent_name>', first, count=1), 1),
        graph([dict(nodes[0], agent='cot')] + nodes[1:], edges), ['agent_alias'])
    no_name = text.replace(first, re.sub(r'\s*<agent_name>.*?</agent_name>', '', first, count=1), 1)
    mut('agent_without_name', no_name, refuses('schema'), ['dropped_agent'] if reference.read_medium(no_name)['verdict'] == 'runs' else [])
    debate = re.sub(r'<agent_name>.*?</agent_name>', '<agent_name>DebateAgent</agent_name>', first, count=1)
    mut('debate_without_roles', text.replace(first, debate, 1), refuses('missing_param'))
    one_role = debate.replace('</required_arguments>', '  <debate_roles>["Judge"]</debate_roles>\n  </required_arguments>')
    one_role_text = text.replace(first, one_role, 1)
    mut('debate_one_role', one_role_text, refuses('invalid_params'), ['dropped_agent'] if reference.read_medium(one_role_text)['verdict'] == 'runs' else [])
    roles = debate.replace('</required_arguments>', '  <debate_roles>["Optimist", "Skeptic"]</debate_roles>\n  </required_arguments>')
    mut('debate_with_roles', text.replace(first, roles, 1), graph([dict(nodes[0], agent='debate', roles=['Optimist', 'Skeptic'])] + nodes[1:], edges))
    roles_on_cot = first.replace('</required_arguments>', '  <debate_roles>["Optimist", "Skeptic"]</debate_roles>\n  </required_arguments>')
    if 'debateagent' not in first.lower():
        mut('roles_on_non_debate', text.replace(first, roles_on_cot, 1), graph(nodes, edges))
    # Inputs holding LaTeX and references to no node: text, not references.
    latex = 'If ${(3^k)}^6=3^6 and arc ${AC}$ has length 2, what is k?'
    target = nodes[0]
    latex_input = (target['input'] + ' ' + latex).strip()
    latex_text = set_input(text, blocks[0], latex_input)
    mut('latex_in_input', latex_text, graph([dict(target, input=latex_input)] + nodes[1:], edges))
    # A reference against the flow: the first node asks for the sink's output.
    back_input = (target['input'] + ' Compare with ${' + ref['sink'] + '}.').strip()
    back_text = set_input(text, blocks[0], back_input)
    if target['id'] != ref['sink']:
        mut('reference_against_flow', back_text, refuses('cycle'), ['ref_against_flow'] if reference.read_medium(back_text)['verdict'] == 'runs' else [])
    # Duplicate ids: the reference runs the first definition.
    second = blocks[1].group(0)
    dup = re.sub(r'<agent_id>.*?</agent_id>', f'<agent_id>{ids[0]}</agent_id>', second, count=1)
    dup_text = text.replace(second, dup, 1)
    dup_ref = reference.read_medium(dup_text)
    mut('duplicate_id', dup_text, refuses('duplicate_id'), ['duplicate_id'] if dup_ref['verdict'] == 'runs' else [])
    # The first agent written twice: the reference runs the first definition, orchrm refuses.
    copied = text.replace(first, first + '\n' + first, 1)
    mut('agent_written_twice', copied, refuses('duplicate_id'), ['duplicate_id'] if reference.read_medium(copied)['verdict'] == 'runs' else [])
    # An extra agent without an id: the reference skips it silently, orchrm refuses.
    anonymous = '\n<agent>\n  <agent_name>CoTAgent</agent_name>\n  <required_arguments><agent_input>Double-check the answer.</agent_input></required_arguments>\n</agent>\n'
    skipped = text.replace(blocks[-1].group(0), blocks[-1].group(0) + anonymous, 1)
    mut('agent_without_id', skipped, refuses('schema'), ['dropped_agent'] if reference.read_medium(skipped)['verdict'] == 'runs' else [])
    # An id with a space: the reference runs it, orchrm refuses.
    spaced = replace_ids(text, {ids[0]: ids[0][:1] + ' ' + ids[0][1:] if len(ids[0]) > 1 else ids[0] + ' x'})
    mut('id_with_space', spaced, refuses('schema'), ['invalid_id'] if reference.read_medium(spaced)['verdict'] == 'runs' else [])
    # A missing </agent> between two agents.
    missing_close = text.replace(first, first[:-len('</agent>')], 1)
    mref = reference.read_medium(missing_close)
    mut('missing_agent_close', missing_close, graph(nodes, edges), ['missing_close_tag'] if mref['verdict'] != 'runs' or mref.get('nodes') != ref['nodes'] else [])
    # Agents inside a closed thinking block are thinking text to orchrm.
    example = '<thinking>\nAn example of the format:\n<agent><agent_id>EXAMPLE</agent_id><agent_name>CoTAgent</agent_name><required_arguments><agent_input>x</agent_input></required_arguments></agent>\n</thinking>\n'
    stripped = re.sub(r'\s*<thinking>.*?</thinking>\s*', '\n', text, flags=re.DOTALL)
    mut('agent_example_in_thinking', example + stripped, graph(nodes, edges), ['agents_in_thinking'])
    # Entities in an input: decoded by orchrm, passed as written by the reference.
    entity_input = (target['input'] + ' Keep x &lt; 3 &amp; y &gt; 2.').strip()
    mut('entities_in_input', set_input(text, blocks[0], entity_input), graph([dict(target, input=(target['input'] + ' Keep x < 3 & y > 2.').strip())] + nodes[1:], edges), ['xml_text_decoded'])
    raw_input = (target['input'] + ' Keep x < 3 && y > 2.').strip()
    mut('raw_angles_in_input', set_input(text, blocks[0], raw_input), graph([dict(target, input=raw_input)] + nodes[1:], edges))
    spaced_ref_node = next((n for n in nodes if '${' in n['input']), None)
    if spaced_ref_node is not None:
        spaced_input = re.sub(r'\$\{(\w+)\}', r'${ \1 }', spaced_ref_node['input'], count=1)
        index = ids.index(spaced_ref_node['id'])
        changed = [dict(n, input=spaced_input) if n['id'] == spaced_ref_node['id'] else n for n in nodes]
        mut('spaced_reference', set_input(text, blocks[index], spaced_input), graph(changed, edges), ['spaced_reference'])
    mut('undeclared_reference', set_input(text, blocks[0], (target['input'] + ' Use ${DRAFT}.').strip()), graph([dict(target, input=(target['input'] + ' Use ${DRAFT}.').strip())] + nodes[1:], edges))


def set_input(text, block, new_input):
    replaced = re.sub(r'<agent_input>.*?</agent_input>', lambda m: f'<agent_input>{new_input}</agent_input>', block.group(0), count=1, flags=re.DOTALL)
    return text[:block.start()] + replaced + text[block.end():]


def truncations(case_id, parser, text, ref, only=None):
    blocks = agents_of(text)
    cuts = []
    thinking = text.find('<thinking>')
    if thinking != -1 and text.find('</thinking>') != -1:
        cuts.append(('in_thinking', thinking + 10 + (text.find('</thinking>') - thinking - 10) // 2))
    if blocks:
        first = blocks[0]
        name = text.find('<agent_name>', first.start())
        cuts.append(('in_agent_name', name + len('<agent_name>') + 2))
        value = text.find('<agent_input>', first.start())
        cuts.append(('in_agent_input', value + len('<agent_input>') + max(1, (text.find('</agent_input>', value) - value - 13) // 2)))
        cuts.append(('before_agent_close', first.end() - len('</agent>')))
    if len(blocks) >= 2:
        cuts.append(('after_first_agent', blocks[0].end()))
        cuts.append(('after_second_agent', blocks[1].end()))
        cuts.append(('in_last_agent', (blocks[-1].start() + blocks[-1].end()) // 2))
        cuts.append(('after_last_agent', blocks[-1].end()))
    edge = text.find('<edge>')
    if edge != -1:
        cuts.append(('after_edge_open', edge + len('<edge>')))
        second_to = text.find('</to>', text.find('</to>', edge) + 1)
        if second_to != -1:
            cuts.append(('in_edge_list', second_to + len('</to>')))
        last_from = text.rfind('<from>')
        cuts.append(('in_tag', last_from + 4))
        cuts.append(('before_edge_close', text.rfind('</edge>')))
    answer = text.find('<answer>')
    if answer != -1:
        cuts.append(('in_answer', answer + len('<answer>') + 1))
    for name, at in cuts:
        if only is not None and name not in only:
            continue
        cut = text[:at]
        cref = reference.read(cut, parser)
        if name == 'after_first_agent':
            # One complete agent read: it is a whole one-agent plan to both parsers.
            nodes, _ = reference_graph(reference.read_medium(cut)) if parser == 'medium' else ([], [])
            expected = graph(nodes, []) if nodes else refuses('truncated')
            add(f'{case_id}/cut_{name}', 'truncation', parser, cut, expected, [], note='a plan cut after its first agent is a one-agent plan; neither parser can tell')
            continue
        deviations = ['truncated'] if cref['verdict'] == 'runs' else []
        add(f'{case_id}/cut_{name}', 'truncation', parser, cut, refuses('truncated'), deviations)


if __name__ == '__main__':
    main()
