# defaults.sh: the settings the launcher's commands (qemu/run.sh,
# qemu/powercut.sh) take from the environment, with their defaults,
# exported for the steps they run (sourced, POSIX sh).
# Outputs (variables, exported): O (build output, default out), RESULTS
#   (where runs land, default results), FSBENCH_HOST (the host build of
#   fsbench, default $O/host/fsbench), BOARD (default qemu-x86_64).
O=${O:-out}
RESULTS=${RESULTS:-results}
FSBENCH_HOST=${FSBENCH_HOST:-$O/host/fsbench}
BOARD=${BOARD:-qemu-x86_64}
export O RESULTS FSBENCH_HOST BOARD
