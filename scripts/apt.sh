# apt_get: apt-get for the scripts that install Debian packages (scripts/test.sh, and
# scripts/services.sh wherever it is sourced: the tests, scripts/cluster.sh).
apt_get() {
    # apt-get, waiting (at most APT_WAIT_S seconds) while another process holds apt's locks:
    # DPkg::Lock::Timeout covers dpkg's lock, the retries the package lists' lock of update.
    local deadline=$((SECONDS + ${APT_WAIT_S:-120})) err
    while ! err="$(apt-get -o DPkg::Lock::Timeout="${APT_WAIT_S:-120}" "$@" 2>&1 >/dev/null)"; do
        if [[ "$err" != *"Could not get lock"* ]] || [ "$SECONDS" -ge "$deadline" ]; then
            echo "warning: apt-get $1 failed: ${err//$'\n'/ }" >&2
            return 1
        fi
        echo "apt-get $1: another process holds apt's lock; waiting" >&2
        sleep 5
    done
}
