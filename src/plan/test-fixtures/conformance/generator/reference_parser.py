"""Runs the MAS-Orchestra reference plan parsers on plan texts and reports what the reference
would run. The parser modules (harmony_parser/medium.py, minimal.py, and extract_xml from
agents/common.py) are read from a MAS-Orchestra git checkout at run time and executed in
memory; nothing of theirs is copied. Stubs stand in for the training stack they import (verl,
shared_vars, logging). After the parser, it applies the checks the generated forward() code
makes when it runs: agent names, and debate roles being a list."""
import ast
import subprocess
import re
import sys
import types
from collections import deque

LOG: list[str] = []
# A MAS-Orchestra checkout (a bare git directory is enough); its files are read, never copied.
if len(sys.argv) < 2:
    raise SystemExit('usage: generate_corpus.py <MAS-Orchestra git dir> <output folder>')
REPO = sys.argv[1]
PARSERS = 'mas_r1_reasoner/rewards/utils/harmony_parser'


def _source(path):
    return subprocess.run(['git', f'--git-dir={REPO}', 'show', f'HEAD:{path}'], capture_output=True, text=True, check=True).stdout


def _load_extract_xml():
    tree = ast.parse(_source('mas_r1_reasoner/agents/common.py'))
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == 'extract_xml':
            module = ast.fix_missing_locations(ast.Module(body=[ast.Import(names=[ast.alias(name='re')]), node], type_ignores=[]))
            namespace: dict = {}
            exec(compile(module, 'common.py', 'exec'), namespace)
            return namespace['extract_xml']
    raise RuntimeError('extract_xml not found')


def _install_stubs():
    verl = types.ModuleType('verl')
    protocol = types.ModuleType('verl.protocol')
    protocol.DataProto = object
    verl.protocol = protocol
    sys.modules['verl'] = verl
    sys.modules['verl.protocol'] = protocol
    pkg = types.ModuleType('mas_r1_reasoner')
    agents = types.ModuleType('mas_r1_reasoner.agents')
    common = types.ModuleType('mas_r1_reasoner.agents.common')
    common.extract_xml = _load_extract_xml()
    common.main_rank_print = lambda *args, **kwargs: LOG.append(' '.join(str(a) for a in args))
    shared = types.ModuleType('mas_r1_reasoner.agents.shared_vars')
    shared.get_global = lambda name: 'node-model' if name == 'global_node_model' else None
    sys.modules['mas_r1_reasoner'] = pkg
    sys.modules['mas_r1_reasoner.agents'] = agents
    sys.modules['mas_r1_reasoner.agents.common'] = common
    sys.modules['mas_r1_reasoner.agents.shared_vars'] = shared
    return common.extract_xml


extract_xml = _install_stubs()


def _load(name):
    module = types.ModuleType(f'reference_{name}')
    exec(compile(_source(f'{PARSERS}/{name}.py'), f'{name}.py', 'exec'), module.__dict__)
    return module


medium = _load('medium')
minimal = _load('minimal')

MEDIUM_BLOCKS = {'cotagent': 'cot', 'scagent': 'sc', 'reflexionagent': 'reflexion', 'debateagent': 'debate', 'websearchagent': 'search'}
# The minimal parser's generated code compares names exactly inside each branch.
MINIMAL_BLOCKS = {'SCAgent': 'sc', 'CoTAgent': 'cot', 'ReflexionAgent': 'reflexion', 'DebateAgent': 'debate'}


def _quiet(function, *args):
    import contextlib
    import io
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return function(*args)


def _roles_ok(roles):
    return isinstance(roles, list) and len(roles) >= 2 and all(isinstance(r, str) and len(r) >= 2 for r in roles)


def read_medium(text: str) -> dict:
    LOG.clear()
    blocks = re.findall(r'<agent>(.*?)</agent>', text, re.DOTALL | re.IGNORECASE)
    agents = _quiet(medium.extract_all_agents, text)
    if not agents:
        answer = extract_xml(text, 'answer')
        if answer:
            return {'verdict': 'runs', 'direct': answer}
        return {'verdict': 'refuses', 'rule': 'no_agents'}
    edges = _quiet(medium.extract_edges, text)
    code = _quiet(medium.parse_harmony_agent_response, text)
    result: dict = {'skipped_agents': len(blocks) - len(agents)}
    if not code:
        errors = [line for line in LOG if line.startswith('Error parsing harmony agent response')]
        message = errors[-1] if errors else 'unknown'
        rule = re.search(r'\((Rule [0-9/]+)\)', message)
        result.update({'verdict': 'refuses', 'rule': rule.group(1) if rule else ('no_edges' if 'no edges' in message else message[:80])})
        return result
    nodes = []
    for agent in agents:
        args = agent['required_arguments']
        node = {'id': agent['agent_id'], 'name': agent['agent_name'], 'input': args.get('agent_input', '')}
        if 'debate_roles' in args:
            node['roles'] = args['debate_roles']
        nodes.append(node)
    for node in nodes:
        kind = MEDIUM_BLOCKS.get(node['name'].lower())
        if kind is None:
            result.update({'verdict': 'refuses', 'rule': 'runtime: unknown agent name'})
            return result
        node['agent'] = kind
        if kind == 'debate' and not _roles_ok(node.get('roles')):
            result.update({'verdict': 'refuses', 'rule': 'runtime: debate without roles'})
            return result
    ids = [node['id'] for node in nodes]
    result['duplicate_ids'] = len(set(ids)) != len(ids)
    if len(agents) == 1 and not edges:
        result.update({'verdict': 'runs', 'nodes': nodes, 'edges': [], 'sink': nodes[0]['id'], 'substituted': {}})
        return result
    order = _quiet(medium.topological_sort, agents, edges)
    sinks = medium.find_sink_agents(agents, edges)
    # What the generated forward() substitutes: ${id} of every agent that ran earlier.
    done: list[str] = []
    substituted: dict = {}
    by_id = {}
    for node in nodes:
        by_id.setdefault(node['id'], node)
    for agent_id in order:
        node = by_id[agent_id]
        used = [prev for prev in done if node['input'] and re.search(r'\$\{' + re.escape(prev) + r'\}', node['input'])]
        substituted[agent_id] = used
        done.append(agent_id)
    result.update({'verdict': 'runs', 'nodes': nodes, 'edges': [list(edge) for edge in edges], 'sink': sinks[0], 'order': order, 'substituted': substituted})
    return result


def read_minimal(text: str) -> dict:
    LOG.clear()
    agent_name = extract_xml(text, 'agent_name')
    if not agent_name:
        answer = extract_xml(text, 'answer')
        if answer:
            return {'verdict': 'runs', 'direct': answer}
        return {'verdict': 'refuses', 'rule': 'no_agents'}
    code = _quiet(minimal.parse_harmony_agent_response, text)
    if not code:
        return {'verdict': 'refuses', 'rule': 'minimal: ' + (LOG[-1][:80] if LOG else 'unknown')}
    kind = MINIMAL_BLOCKS.get(agent_name)
    if kind is None:
        return {'verdict': 'refuses', 'rule': 'runtime: unknown agent name'}
    arguments = extract_xml(text, 'required_arguments')
    agent_input = extract_xml(arguments, 'agent_input')
    agent_input = '' if agent_input == '""' or not agent_input else agent_input
    node = {'id': extract_xml(text, 'agent_output_id'), 'name': agent_name, 'agent': kind, 'input': agent_input}
    roles_text = extract_xml(arguments, 'debate_roles')
    if roles_text:
        try:
            node['roles'] = ast.literal_eval(roles_text)
        except (ValueError, SyntaxError):
            node['roles'] = roles_text
    if kind == 'debate' and not _roles_ok(node.get('roles')):
        return {'verdict': 'refuses', 'rule': 'runtime: debate without roles'}
    return {'verdict': 'runs', 'nodes': [node], 'edges': [], 'sink': node['id'], 'substituted': {}}


def read(text: str, parser: str) -> dict:
    return read_medium(text) if parser == 'medium' else read_minimal(text)
