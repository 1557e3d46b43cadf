#!/bin/bash
# usage: lock.sh <main.js> <label>: a 4,000-episode in-process collect, and 3 s in, `import` of an 18 MB
# (2,000-episode) JSONL file into the same database. Prints both exit codes and collect's last lines.
M=$1; D=/tmp/i23-data/harness/lock-$2; rm -rf $D; mkdir -p $D
node $M collect --scenario default --count 1000 --plans-per-task 4 --seed 2 --db $D/x.db > $D/collect.out 2> $D/collect.err & cpid=$!
sleep 3
node $M import --db $D/x.db /tmp/i23-data/r6/big.jsonl > $D/import.out 2> $D/import.err; icode=$?
wait $cpid; ccode=$?
echo "$2: collect exit $ccode, import exit $icode; collect: $(grep -v '^collect:' $D/collect.err | head -c 300 | tr '\n' ' ') $(head -1 $D/collect.out) | import: $(head -c 200 $D/import.out $D/import.err | tr '\n' ' ')"
