"""Cuts every plan example out of the reference's prompt files: each maximal run of lines that
starts with a plan tag (<thinking>, <agent>, <edge>, <from>, <answer>) and continues while a tag
is open or the line is tag-shaped."""
import ast
import json
import re
import subprocess
import sys

if len(sys.argv) < 2:
    raise SystemExit('usage: generate_corpus.py <MAS-Orchestra git dir> <output folder>')
REPO = sys.argv[1]
COMMIT = subprocess.run(['git', f'--git-dir={REPO}', 'rev-parse', 'HEAD'], capture_output=True, text=True).stdout.strip()
FILES = [path for path in subprocess.run(['git', f'--git-dir={REPO}', 'ls-tree', '-r', '--name-only', 'HEAD', 'mas_r1_reasoner/agents/prompts'], capture_output=True, text=True).stdout.split() if path.endswith('.py')]

OPENERS = ('<thinking>', '<agent>', '<edge>', '<from>', '<answer>')
TEXT_TAGS = ('thinking', 'agent_input', 'agent_description', 'answer', 'agent_output_id', 'debate_roles')


def strings_of(path):
    source = subprocess.run(['git', f'--git-dir={REPO}', 'show', f'HEAD:{path}'], capture_output=True, text=True).stdout
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            out.append((node.targets[0].id if isinstance(node.targets[0], ast.Name) else '?', node.value.value))
    return out


def segments(text):
    lines = text.split('\n')
    found = []
    index = 0
    while index < len(lines):
        stripped = lines[index].strip()
        if not stripped.startswith(OPENERS):
            index += 1
            continue
        start = index
        open_text = None
        end = index
        while index < len(lines):
            line = lines[index]
            stripped = line.strip()
            if open_text is None and stripped and not stripped.startswith('<'):
                break
            # Track whether a text tag stays open past this line.
            for tag in TEXT_TAGS:
                opens = len(re.findall(f'<{tag}>', line))
                closes = len(re.findall(f'</{tag}>', line))
                if open_text is None and opens > closes:
                    open_text = tag
                elif open_text == tag and closes > opens:
                    open_text = None
            if stripped:
                end = index
            index += 1
        found.append('\n'.join(lines[start:end + 1]))
    return found


def collect():
    out = []
    seen = set()
    for path in FILES:
        for name, value in strings_of(path):
            for number, segment in enumerate(segments(value)):
                if not any(tag in segment for tag in ('<agent>', '<answer>', '<edge>', '<from>')):
                    continue
                key = segment.strip()
                duplicate = key in seen
                seen.add(key)
                out.append({'file': path, 'variable': name, 'index': number, 'text': segment, 'duplicate': duplicate})
    return out


if __name__ == '__main__':
    json.dump({'commit': COMMIT, 'examples': collect()}, sys.stdout, indent=1)
