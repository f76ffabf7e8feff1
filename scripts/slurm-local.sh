#!/bin/bash
# A single-node Slurm on this machine (Debian 12, run as root), for trying
# scripts/slurm-match.sh and `sbatch` jobs without a cluster.
#
#   scripts/slurm-local.sh          install (apt-get) if needed, write the config, start
#                                   munged, slurmctld and slurmd, wait until the node is idle
#   scripts/slurm-local.sh status   show the daemons and `sinfo`
#   scripts/slurm-local.sh stop     stop the three daemons (by their pid files)
#   scripts/slurm-local.sh pack F   write F (a .tar.gz): the installed Slurm and munge packages'
#                                   files and the shared libraries they load (glibc's apart),
#                                   for a machine that cannot reach a package mirror
#   SLURM_PACK=F scripts/slurm-local.sh
#                                   on such a machine (x86-64, glibc as new as the packer's): install from
#                                   F instead of apt-get (files already there are kept), then start
#
# Idempotent: running it again starts only what is not running and keeps a config it wrote.
# The node gets `nproc` CPUs and 95% of MemTotal (/proc/meminfo); one partition, `local`.
# A /etc/slurm/slurm.conf not written by this script (a real cluster's) is left alone and the
# script stops with an error. Logs: /var/log/slurm/. No systemd needed (the daemons are started
# directly), no cgroups (proctrack/linuxproc, task/none), no accounting daemon: `sacct` does
# not work here, `scontrol show job ID` does (finished jobs are kept for an hour).
set -eu

CONF=/etc/slurm/slurm.conf
MARK="# written by chariot scripts/slurm-local.sh"
MUNGE_PID=/run/munge/munged.pid
CTLD_PID=/run/slurmctld.pid
SLURMD_PID=/run/slurmd.pid

usage() {
    echo "usage: $0 [start|stop|status|pack FILE]   (as root; start is the default)" >&2
    exit "${1:-2}"
}

die() {
    echo "slurm-local: $*" >&2
    exit 1
}

# Whether the process named in pid file $1 is alive.
alive() {
    [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null
}

stop_one() { # name pidfile
    if alive "$2"; then
        pid=$(cat "$2")
        kill "$pid"
        for _ in $(seq 50); do
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.2
        done
        if kill -0 "$pid" 2>/dev/null; then
            die "$1 (pid $pid) did not stop within 10 s"
        fi
        echo "slurm-local: stopped $1 (pid $pid)"
    else
        echo "slurm-local: $1 is not running"
    fi
    rm -f "$2"
}

install_packages() {
    if command -v slurmctld >/dev/null && command -v slurmd >/dev/null \
        && command -v sbatch >/dev/null && command -v munged >/dev/null; then
        return
    fi
    if [ -n "${SLURM_PACK:-}" ]; then
        install_pack "$SLURM_PACK"
        return
    fi
    command -v apt-get >/dev/null || die "no apt-get: install Slurm (slurmctld, slurmd, client) and munge yourself"
    echo "slurm-local: installing slurmctld slurmd slurm-client munge (apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q
    apt-get install -y -q --no-install-recommends slurmctld slurmd slurm-client munge
}

PACKAGES="slurmctld slurmd slurm-client slurm-wlm-basic-plugins munge libmunge2"

# pack FILE: the packages' files (not their directories) and every shared library their
# programs and plugins load that the packages do not hold, glibc's own apart (libc, libm,
# libdl, libpthread, librt, libresolv, the loader): a machine with an older glibc is refused
# at install. Paths are written with their directories resolved (/lib -> /usr/lib).
pack() {
    out=${1:?pack needs a file name}
    case "$out" in /*) ;; *) out="$(pwd)/$out" ;; esac
    command -v dpkg >/dev/null || die "pack needs dpkg (a Debian-family machine with Slurm installed)"
    # shellcheck disable=SC2086
    dpkg -s $PACKAGES >/dev/null 2>&1 || die "pack needs the packages installed: $PACKAGES"
    list=$(mktemp)
    # shellcheck disable=SC2086
    dpkg -L $PACKAGES | sort -u | while read -r f; do
        if [ ! -d "$f" ] && { [ -L "$f" ] || [ -f "$f" ]; }; then
            echo "$(readlink -f "$(dirname "$f")")/$(basename "$f")"
        fi
    done | sort -u >"$list.files"
    # commands reached through links outside the packages (Debian's alternatives:
    # /usr/sbin/slurmctld -> /etc/alternatives/slurmctld -> /usr/sbin/slurmctld-wlm)
    for l in /usr/bin/* /usr/sbin/*; do
        if [ ! -L "$l" ] || ! grep -qxF "$(readlink -f "$l")" "$list.files"; then continue; fi
        x=$l
        while [ -L "$x" ]; do
            echo "$x"
            n=$(readlink "$x")
            case "$n" in /*) x=$n ;; *) x="$(dirname "$x")/$n" ;; esac
        done
    done | cat "$list.files" - | sort -u >"$list"
    rm -f "$list.files"
    libs=$(mktemp)
    while read -r f; do
        if [ -f "$f" ] && [ ! -L "$f" ] && head -c 4 "$f" | grep -q "ELF"; then
            ldd "$f" 2>/dev/null | awk '/=> \// { print $3 }'
        fi
    done <"$list" | sort -u | while read -r l; do
        case "$(basename "$l")" in
        libc.so.* | libm.so.* | libdl.so.* | libpthread.so.* | librt.so.* | libresolv.so.* | ld-linux*) continue ;;
        esac
        d=$(readlink -f "$(dirname "$l")")
        echo "$d/$(basename "$l")"
        readlink -f "$l"
    done | sort -u >"$libs"
    sort -u "$list" "$libs" | grep -vxFf "$list" >"$libs.extra" || true
    glibc=$(ldd --version | head -1 | awk '{ print $NF }')
    mkdir -p "$list.d/etc"
    echo "$glibc" >"$list.d/etc/chariot-slurm-pack-glibc"
    # shellcheck disable=SC2046
    tar -czf "$out" -C / $(sort -u "$list" "$libs" | sed 's#^/##') -C "$list.d" etc/chariot-slurm-pack-glibc
    echo "slurm-local: wrote $out ($(wc -l <"$list") package files, $(wc -l <"$libs.extra") library files beside them, glibc $glibc, $(du -h "$out" | cut -f1))"
    rm -rf "$list" "$list.d" "$libs" "$libs.extra"
}

# install_pack FILE: unpack a file made by `pack` over / (keeping every file already there:
# a newer library of the same soname stays), run ldconfig, add the slurm and munge users.
install_pack() {
    [ -s "$1" ] || die "SLURM_PACK=$1: no such file"
    want=$(tar -xzOf "$1" etc/chariot-slurm-pack-glibc 2>/dev/null) || die "SLURM_PACK=$1 was not written by '$0 pack'"
    have=$(ldd --version 2>/dev/null | head -1 | awk '{ print $NF }')
    if [ "$(printf '%s\n%s\n' "$want" "$have" | sort -V | head -1)" != "$want" ]; then
        die "SLURM_PACK=$1 was made with glibc $want; this machine has ${have:-none}"
    fi
    echo "slurm-local: installing Slurm and munge from $1 (made with glibc $want; here $have)"
    tar -xzf "$1" -C / --skip-old-files --exclude etc/chariot-slurm-pack-glibc
    ldconfig
    for u in slurm munge; do
        if ! id -u "$u" >/dev/null 2>&1; then
            useradd --system --user-group --no-create-home --home-dir /nonexistent \
                --shell /usr/sbin/nologin "$u"
        fi
    done
    mkdir -p /etc/munge
    chown munge:munge /etc/munge
    chmod 700 /etc/munge
    for c in slurmctld slurmd sbatch munged mungekey; do
        command -v "$c" >/dev/null || die "$c missing after unpacking $1"
    done
}

write_config() {
    if [ -e "$CONF" ] && ! grep -qF "$MARK" "$CONF"; then
        die "$CONF exists and was not written by this script; not touching it (a real cluster? use its partitions)"
    fi
    host=$(hostname -s)
    cpus=$(nproc)
    mem_kb=$(awk '/^MemTotal:/ { print $2 }' /proc/meminfo)
    mem_mb=$((mem_kb * 95 / 100 / 1024))
    mkdir -p /etc/slurm /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
    chown -R slurm:slurm /var/spool/slurmctld /var/log/slurm
    tmp=$(mktemp "$CONF.XXXXXX")
    cat >"$tmp" <<EOF
$MARK
# A single-node cluster: this machine, $cpus CPUs, $mem_mb MB.
ClusterName=chariot
SlurmctldHost=$host(127.0.0.1)
SlurmUser=slurm
AuthType=auth/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU_Memory
ReturnToService=2
MinJobAge=3600
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=$CTLD_PID
SlurmdPidFile=$SLURMD_PID
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP DefMemPerCPU=$((mem_mb / cpus))
EOF
    chmod 644 "$tmp"
    # A cgroup v2 host without systemd's D-Bus (a container, a small VM): slurmd (22.05)
    # fails to make its scope through systemd, so it makes it itself (IgnoreSystemd): it
    # creates <mount>/system.slice/<node>_slurmstepd.scope but not system.slice, made here,
    # and the controllers it asks for are enabled at the root where the kernel has them.
    if [ "$(stat -fc %T /sys/fs/cgroup 2>/dev/null)" = cgroup2fs ] && [ ! -S /run/dbus/system_bus_socket ]; then
        cg=/etc/slurm/cgroup.conf
        if [ -e "$cg" ] && ! grep -qF "$MARK" "$cg"; then
            die "$cg exists and was not written by this script; not touching it"
        fi
        printf '%s\nCgroupPlugin=cgroup/v2\nIgnoreSystemd=yes\n' "$MARK" >"$cg"
        mkdir -p /sys/fs/cgroup/system.slice
        for c in cpuset cpu memory; do
            echo "+$c" >/sys/fs/cgroup/cgroup.subtree_control 2>/dev/null || true
        done
    fi
    if [ -e "$CONF" ] && cmp -s "$tmp" "$CONF"; then
        rm -f "$tmp"
    else
        mv "$tmp" "$CONF"
        echo "slurm-local: wrote $CONF ($host: $cpus CPUs, $mem_mb MB)"
        if alive "$CTLD_PID"; then
            echo "slurm-local: config changed, restarting slurmctld and slurmd"
            stop_one slurmd "$SLURMD_PID"
            stop_one slurmctld "$CTLD_PID"
        fi
    fi
}

start_munge() {
    if alive "$MUNGE_PID"; then
        return
    fi
    if [ ! -s /etc/munge/munge.key ]; then
        mungekey --create --keyfile=/etc/munge/munge.key
        chown munge:munge /etc/munge/munge.key
        chmod 400 /etc/munge/munge.key
    fi
    mkdir -p /run/munge /var/log/munge /var/lib/munge
    chown -R munge:munge /run/munge /var/log/munge /var/lib/munge
    chmod 755 /run/munge
    runuser -u munge -- /usr/sbin/munged || die "munged did not start (see /var/log/munge/munged.log)"
    echo "slurm-local: started munged (pid $(cat "$MUNGE_PID"))"
}

start() {
    [ "$(id -u)" -eq 0 ] || die "run it as root (it installs packages and starts daemons)"
    install_packages
    write_config
    start_munge
    munge -n | unmunge >/dev/null || die "munge does not work (see /var/log/munge/munged.log)"
    if ! alive "$CTLD_PID"; then
        /usr/sbin/slurmctld
        sleep 1
        alive "$CTLD_PID" || die "slurmctld did not start (see /var/log/slurm/slurmctld.log)"
        echo "slurm-local: started slurmctld (pid $(cat "$CTLD_PID"))"
    fi
    if ! alive "$SLURMD_PID"; then
        /usr/sbin/slurmd
        sleep 1
        alive "$SLURMD_PID" || die "slurmd did not start (see /var/log/slurm/slurmd.log)"
        echo "slurm-local: started slurmd (pid $(cat "$SLURMD_PID"))"
    fi
    host=$(hostname -s)
    for _ in $(seq 30); do
        state=$(sinfo -h -n "$host" -o %T 2>/dev/null || true)
        case "$state" in
        idle* | mixed* | allocated*)
            sinfo
            return 0
            ;;
        drain* | down*)
            scontrol update NodeName="$host" State=RESUME 2>/dev/null || true
            ;;
        esac
        sleep 1
    done
    sinfo -R || true
    die "node $host is not idle after 30 s (state '$state'; see /var/log/slurm/)"
}

show_one() { # name pidfile
    if alive "$2"; then echo "$1: running (pid $(cat "$2"))"; else echo "$1: stopped"; fi
}

status() {
    show_one munged "$MUNGE_PID"
    show_one slurmctld "$CTLD_PID"
    show_one slurmd "$SLURMD_PID"
    if alive "$CTLD_PID"; then sinfo; squeue; fi
}

case "${1:-start}" in
start) start ;;
pack) pack "${2:-}" ;;
stop)
    stop_one slurmd "$SLURMD_PID"
    stop_one slurmctld "$CTLD_PID"
    stop_one munged "$MUNGE_PID"
    ;;
status) status ;;
-h | --help) usage 0 ;;
*) usage ;;
esac
