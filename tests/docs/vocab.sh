# vocab.sh: one vocabulary for messages and exit codes, sourced by
# tests/docs/run.sh (its check/expect_rc, $S the scratch folder, $top the
# tree). Needs no root and nothing built but the host fsbench.
#   - the scripts of image/ and qemu/ speak through image/lib.sh: no die,
#     say or warn of their own; lib.sh's codes are runner/lib/msg.h's;
#     a misuse exits 2 and a missing tool 4, each said as "SCRIPT: ...".

# ---- shell: image/lib.sh ----
own=$(cd "$top" && grep -nE '^[[:space:]]*(die|say|warn)[[:space:]]*\(\)' image/*.sh qemu/*.sh |
	grep -v '^image/lib\.sh:' || true)
check "image/, qemu/: no script defines its own die, say or warn${own:+ ($own)}" [ -z "$own" ]
nolib=
for f in "$top"/image/*.sh "$top"/qemu/*.sh; do
	case $f in */image/lib.sh) continue ;; esac
	grep -v '^[[:space:]]*#' "$f" | grep -qE '(^|[;&|{[:space:]])(die|say|warn) ' || continue
	grep -qE '^\. .*image/lib\.sh"$|^\. "\$\(dirname "\$0"\)/lib\.sh"$' "$f" || nolib="$nolib ${f#"$top"/}"
done
check "image/, qemu/: every script that says or dies sources image/lib.sh${nolib:+ (not:$nolib)}" [ -z "$nolib" ]
# lib.sh's EX_NAME=N against msg.h's EXIT_NAME = N
codes_sh=$(sed -n 's/^EX_\([A-Z]*\)=\([0-9]*\)$/\1 \2/p' "$top/image/lib.sh")
codes_h=$(sed -n 's/^[[:space:]]*EXIT_\([A-Z]*\) = \([0-9]*\),.*/\1 \2/p' "$top/runner/lib/msg.h" | grep -v '^OK ')
check "image/lib.sh: EX_FAIL, EX_USAGE, EX_REFUSED, EX_SYSTEM, EX_ERROR are msg.h's codes" \
	sh -c '[ -n "$1" ] && [ "$1" = "$2" ]' _ "$codes_sh" "$codes_h"

# A misuse exits 2, a system failure 4; the line is "SCRIPT: message".
expect_rc 2 "qemu/run.sh --bogus: misuse" sh "$top/qemu/run.sh" --bogus
check "qemu/run.sh: the launcher's prefix" [ "$ERR" = "qemu: unknown option '--bogus' (--help lists them)" ]
expect_rc 2 "image/kernel.sh check on a folder that is not there: misuse" \
	env BOARD_ARCH=amd64 sh "$top/image/kernel.sh" check "$S/no-such-kernel" "$S/kout"
check "image/kernel.sh: kernel: PATH: reason" [ "$ERR" = "kernel: $S/no-such-kernel: not a folder (KERNEL= a kernel build tree, or a folder with a kernel image and lib/modules/VERSION)" ]
expect_rc 2 "image/fio.sh ARCH=sparc: misuse" \
	env ARCH=sparc HEADERS="$S/h.deb" SOURCES="$S/src" OUT="$S/fio" sh "$top/image/fio.sh"
check "image/fio.sh: fio: reason" [ "$ERR" = "fio: architecture 'sparc' not supported (amd64, arm64, armhf)" ]
expect_rc 2 "image/deps.sh with an unknown group: misuse" sh "$top/image/deps.sh" nosuch
check "image/deps.sh: deps: reason" [ "$ERR" = "deps: unknown package group 'nosuch'" ]
# a missing tool: jq, on a PATH that holds only what lib.sh needs
mkdir -p "$S/bin"
for c in dirname basename; do ln -sf "$(command -v "$c")" "$S/bin/$c"; done
expect_rc 4 "qemu/records.sh without jq: system failure" env PATH="$S/bin" "$(command -v sh)" "$top/qemu/records.sh" f t
check "qemu/records.sh: records: reason" [ "$ERR" = "records: jq not found (Debian package jq; make deps)" ]

# ---- C: only the command layer prints ----
# Library code (run/, report/, log/, lib/) returns -errno or an error text
# and never prints; what a user must see while a run works goes through the
# say hook the command layer hands down (lib/msg.h: fsb_say). The printing
# calls: the message functions, printf/puts/perror, anything given stdout or
# stderr, a write to fd 1 or 2. Allowed outside cmd/ and main.c:
#   runner/lib/msg.c, msg.h   the message functions themselves (fsb_msg,
#                             fsb_misuse: called only from cmd/)
# Records go to the fd the command layer gives (fsb_ctx.out_fd), documents
# to the FILE the caller passes: neither is printing on the library's own.
print_re='\b(fsb_msg|fsb_vmsg|fsb_fail|fsb_misuse|fsb_vmisuse|printf|vprintf|puts|putchar|perror)[[:space:]]*\(|\b(stdout|stderr)[[:space:]]*[,)]|\b(STDOUT_FILENO|STDERR_FILENO)\b|\b(dprintf|write|fsb_write_all)[[:space:]]*\([[:space:]]*[12][[:space:]]*,'
printing=$(cd "$top" && grep -rnE "$print_re" runner --include=*.c --include=*.h |
	grep -vE '^runner/(cmd/|main\.c:|lib/msg\.[ch]:)' |
	grep -vE '^[^:]+:[0-9]+:[[:space:]]*(/?\*|//)' || true)
check "runner: no code outside cmd/ and main.c prints${printing:+:
$printing}" [ -z "$printing" ]
# the check sees a print: a scratch copy of a library file that does
mkdir -p "$S/runner/run"
printf 'void f(void)\n{\n\tfsb_msg("x");\n\tfprintf(stderr, "y");\n}\n' > "$S/runner/run/p.c"
check "the print check finds fsb_msg and fprintf(stderr in run/" \
	sh -c '[ "$(cd "$1" && grep -rnE "$2" runner | wc -l)" = 2 ]' _ "$S" "$print_re"
