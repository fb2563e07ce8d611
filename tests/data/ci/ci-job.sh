#!/bin/sh
# A CI job as a pipeline runs it (tests/checks/test_ci_job.py runs this script):
# simulate paper 004's IMS 14 and IMS 15 Fast Path runs (the benchmark's
# output; a job restoring them from a cache skips this), analyze the new run
# for the job's artifacts, check it against the rules and the baseline, and act
# on zperf check's exit status: 0 pass, 1 a rule failed, 2 the check could not
# run (bad rules file, bad input, bad usage).
#
#   sh ci-job.sh RULES WORKDIR
set -u
rules=$1
work=$2

for run in ims14 ims15; do
    if [ ! -d "$work/runs/$run" ]; then
        zperf simulate "$run-fast-path" --exact --out "$work/runs/$run" || exit 2
    fi
done
zperf analyze "$work/runs/ims15" --to csv -o "$work/ims15-analysis.csv" || exit 2

zperf check "$rules" "$work/runs/ims15" --baseline "$work/runs/ims14" \
    --junit "$work/junit.xml" --markdown "$work/summary.md"
status=$?
case $status in
    0) echo "ci: every check passed" ;;
    1) echo "ci: a check failed: failing the job (the failures are in junit.xml)" ;;
    *) echo "ci: the checks could not run (bad rules file or input): failing the job" ;;
esac
exit $status
