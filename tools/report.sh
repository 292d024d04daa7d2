# report.sh: sourced by the check scripts. report NAME STATUS [LOG] prints "ok   NAME", or
# "FAIL NAME" and the log's last 20 lines indented, and sets failed=1 on a failure.
failed=0
report() {
    if [ "$2" -eq 0 ]; then echo "ok   $1"; else echo "FAIL $1"; failed=1; [ -n "${3:-}" ] && sed 's/^/    /' "$3" | tail -20; fi
}
