#!/usr/bin/env bash
# `make test-cluster`: a one-node Slurm cluster on this machine (munge + slurmctld + slurmd, no
# systemd), a 4-task array job over 40 images with `sumi run --shard auto`, and the checks: the union
# of outputs is complete, no input was processed twice, the tasks are balanced (10 inputs each: shards
# are dealt round robin by position), and a rerun with --skip-existing does no work.
# Usage: tools/test-cluster.sh PATH-TO-SUMI   (run as root; installs nothing itself: see the Makefile)
set -euo pipefail
SUMI=$(realpath "${1:?usage: test-cluster.sh PATH-TO-SUMI}")
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=$(mktemp -d /tmp/sumi-cluster.XXXXXX)
chmod 755 "$WORK"
STATE="$WORK/slurm"
mkdir -p "$STATE/ctld" "$STATE/d" "$WORK/in" "$WORK/out"
export SLURM_CONF="$STATE/slurm.conf"
started=()

fail() { echo "test-cluster: FAIL: $*" >&2; for f in "$STATE"/*.log; do [ -f "$f" ] && { echo "--- $f" >&2; tail -20 "$f" >&2; }; done; exit 1; }
cleanup() {
  for pidfile in "${started[@]}"; do
    [ -f "$pidfile" ] && kill "$(cat "$pidfile")" 2>/dev/null || true
  done
  sleep 1
  rm -rf "$WORK"
}
trap cleanup EXIT

# munge: a random key owned by munge, munged running as munge.
if ! munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1; then
  mkdir -p /etc/munge /var/lib/munge /var/log/munge /run/munge
  if [ ! -s /etc/munge/munge.key ]; then
    dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
  fi
  chown munge:munge /etc/munge /etc/munge/munge.key /var/lib/munge /var/log/munge /run/munge
  chmod 0700 /etc/munge; chmod 0400 /etc/munge/munge.key
  runuser -u munge -- /usr/sbin/munged --force
  started+=(/run/munge/munged.pid)
  for _ in $(seq 50); do munge -n </dev/null 2>/dev/null | unmunge >/dev/null 2>&1 && break; sleep 0.2; done
  munge -n </dev/null | unmunge >/dev/null || fail "munged does not answer"
fi

# Slurm: one node, this machine.
HOST=$(hostname -s)
CPUS=$(nproc)
MEM=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 / 2 ))
cat > "$SLURM_CONF" <<CONF
ClusterName=sumitest
SlurmctldHost=$HOST(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SlurmctldPort=${SUMI_SLURMCTLD_PORT:-16817}
SlurmdPort=${SUMI_SLURMD_PORT:-16818}
StateSaveLocation=$STATE/ctld
SlurmdSpoolDir=$STATE/d
SlurmctldPidFile=$STATE/slurmctld.pid
SlurmdPidFile=$STATE/slurmd.pid
SlurmctldLogFile=$STATE/slurmctld.log
SlurmdLogFile=$STATE/slurmd.log
ReturnToService=2
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=$CPUS RealMemory=$MEM State=UNKNOWN
PartitionName=sumi Nodes=$HOST Default=YES MaxTime=INFINITE State=UP
CONF
slurmctld -i || fail "slurmctld did not start"
started+=("$STATE/slurmctld.pid")
slurmd || fail "slurmd did not start"
started+=("$STATE/slurmd.pid")
for _ in $(seq 100); do
  state=$(sinfo -h -N -o %t 2>/dev/null | head -1 || true)
  [ "$state" = idle ] && break
  sleep 0.3
done
[ "$state" = idle ] || fail "the node is not idle (state: ${state:-none})"

# 40 small images.
"$SUMI" run "decode path=$ROOT/pipelines/samples/photo.jpg ! scale width=64 ! encode path=$WORK/in/img00.png" --quiet
for i in $(seq -w 1 39); do cp "$WORK/in/img00.png" "$WORK/in/img$i.png"; done

cat > "$WORK/job.sh" <<JOB
#!/usr/bin/env bash
exec "$SUMI" run "$ROOT/pipelines/thumbnail.json" -i "$WORK/in" -o "$WORK/out/{stem}.png" --set width=16 --shard auto --json \$EXTRA
JOB
chmod +x "$WORK/job.sh"

run_array() { # $1: tag, $2: extra sumi options
  EXTRA="$2" sbatch --quiet --wait --array=0-3 --export=ALL,EXTRA="$2" --chdir="$WORK" \
    --output="$WORK/$1-%a.jsonl" --error="$WORK/$1-%a.err" "$WORK/job.sh" >/dev/null \
    || fail "the array job $1 failed: $(cat "$WORK"/$1-*.err 2>/dev/null)"
}

start=$(date +%s%N)
run_array first ""
elapsed=$(( ($(date +%s%N) - start) / 1000000 ))
first="$((elapsed / 1000)).$(printf %03d $((elapsed % 1000)))"
outputs=$(ls "$WORK/out" | wc -l)
[ "$outputs" -eq 40 ] || fail "expected 40 outputs, found $outputs"
inputs=$(cat "$WORK"/first-*.jsonl | grep '"pipeline"' | grep -o '"input": "[^"]*"' | sort)
[ "$(echo "$inputs" | wc -l)" -eq 40 ] || fail "expected 40 runs, the reports show $(echo "$inputs" | wc -l)"
[ -z "$(echo "$inputs" | uniq -d)" ] || fail "inputs processed twice: $(echo "$inputs" | uniq -d)"
for a in 0 1 2 3; do
  grep -q "\"shard\": \"$((a + 1))/4\"" "$WORK/first-$a.jsonl" || fail "task $a did not run shard $((a + 1))/4"
done
per_task=$(for a in 0 1 2 3; do grep -c '"pipeline"' "$WORK/first-$a.jsonl" || true; done | tr '\n' ' ')
[ "$per_task" = "10 10 10 10 " ] || fail "the shards are not balanced: $per_task(expected 10 each)"
stamp=$(stat -c %Y "$WORK"/out/* | sort | md5sum)

run_array again "--skip-existing"
ran=$(cat "$WORK"/again-*.jsonl | grep '"shard"' | grep -o '"ran": [0-9]*' | awk '{s += $2} END {print s}')
skipped=$(cat "$WORK"/again-*.jsonl | grep '"shard"' | grep -o '"skipped": [0-9]*' | awk '{s += $2} END {print s}')
[ "$ran" -eq 0 ] || fail "the rerun with --skip-existing ran $ran pipelines"
[ "$skipped" -eq 40 ] || fail "the rerun skipped $skipped of 40"
[ "$stamp" = "$(stat -c %Y "$WORK"/out/* | sort | md5sum)" ] || fail "the rerun rewrote outputs"
echo "test-cluster: OK: 4 Slurm array tasks ran 40 inputs once each (per task: $per_task), in ${first}s; the --skip-existing rerun ran 0 and skipped 40"
