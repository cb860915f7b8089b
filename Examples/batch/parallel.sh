#!/bin/bash
# GNU parallel over ssh: one share per host, all cores of each (hosts listed in hosts.txt, each
# with fontshell on PATH and the library at the same path, e.g. an NFS mount).
# --keep-order prints the shares in index order, so the output is the lines of a single run.
#   Examples/batch/parallel.sh /srv/fonts hosts.txt > all.jsonl
# Without hosts (a file of ":" lines, or HOSTS=":" for this machine only) it runs locally.
set -euo pipefail
fonts=${1:?usage: parallel.sh FONT-FOLDER [HOSTS-FILE] [SHARES]}
hosts=${2:-}
shares=${3:-4}
script=$(cd "$(dirname "$0")" && pwd)/names-and-metrics.lua
remote=()
if [[ -n $hosts ]]; then remote=(--sshloginfile "$hosts" --transferfile "$script"); fi
seq 1 "$shares" | parallel --keep-order "${remote[@]}" \
  fontshell run "$script" --each "'$fonts/**/*.{ttf,otf,ttc}'" --shard "{}/$shares" --quiet --jsonl
