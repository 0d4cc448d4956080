#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# t52-config.sh: your own config (-K BASE, --config): a .config file, or
# defconfig, as the base every kernel starts from. Bad files are refused
# before anything is built; a file base builds, keeps qemu.config's
# options, lists what it lost, and measures; its contents are part of the
# image's and the results cache's keys.
# Builds one kernel from a .config that vanilla 6.1's tinyconfig build
# left, with a log buffer of another size: only printk.c compiles anew,
# ccache's preprocessor mode has the rest (a minute or two when t50 ran
# before; a change that every file sees, such as HZ, is a cold build).
# Needs: a kernel build and boot (tests/run skips it with PB_SKIP_KERNEL=1)
set -u
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
. "$T_TOP/bisect/lib.sh"
b=$T_TOP/bisect
PB_QUIET=1
export PB_QUIET

src=$("$b/kernel-src.sh") || {
	fail "kernel source import"
	done_testing
	exit
}

# --- bad input: one line, its own exit code, nothing built -------------
printf 'CONFIG_SMP=y\nthis is not a config\n' >"$T_TMP/garbage.config"
printf '# only comments\n\n' >"$T_TMP/empty.config"
builds_before=$(ls "$PERFBISECT_HOME/images" 2>/dev/null | wc -l)
for cmd in build.sh measure.sh; do
	run_rc "$b/$cmd" -K "$T_TMP/garbage.config" "$src" v6.1-debian
	is "$rc:$(wc -l <"$T_TMP/err")" 33:1 "$cmd -K a file that is not a config: exit 33, one line"
	like "$(cat "$T_TMP/err")" 'garbage\.config is not a kernel config \(line 2: this is not a config\)' \
		"$cmd: the error names the file and its first bad line"
done
run_rc "$b/build.sh" -K "$T_TMP/empty.config" "$src" v6.1-debian
is "$rc" 33 "build.sh -K a file with no option set: exit 33"
like "$(cat "$T_TMP/err")" 'no CONFIG_ option is set' "the error says why"
run_rc "$b/build.sh" -K "$T_TMP/nosuch.config" "$src" v6.1-debian
is "$rc:$(wc -l <"$T_TMP/err")" 2:1 "build.sh -K a missing file: usage error, one line"
like "$(cat "$T_TMP/err")" "give tinyconfig, defconfig or a \.config file" "the error says what BASE may be"
for args in "bisect -g v6.1-debian -b v6.1-debian" "validate -B v6.1-debian -O v6.1-debian x.patch" \
	"reproduce v6.1-debian v6.1-debian"; do
	cmd=${args%% *}
	# shellcheck disable=SC2086
	run_rc "$b/perfbisect" "$cmd" -t "$src" --config "$T_TMP/garbage.config" ${args#* }
	is "$rc" 33 "perfbisect $cmd --config FILE: refused with exit 33"
	like "$(cat "$T_TMP/err")" "^perfbisect $cmd: error: .*garbage\\.config is not a kernel config" \
		"perfbisect $cmd: the error is the command's"
done
run_rc "$b/perfbisect" bisect -t "$src" --config="$T_TMP/garbage.config" -g v6.1-debian -b v6.1-debian
is "$rc" 33 "perfbisect bisect --config=FILE: the same"
run_rc "$b/perfbisect" bisect --config
is "$rc" 2 "perfbisect bisect --config without BASE: usage error"
is "$(ls "$PERFBISECT_HOME/images" 2>/dev/null | wc -l)" "$builds_before" "no image was built for bad input"

# --- keys: the base's contents, not its name ---------------------------
tinyart=$("$b/build.sh" -n "$src" v6.1-debian)
is "$("$b/build.sh" -n -K tinyconfig "$src" v6.1-debian)" "$tinyart" "-K tinyconfig is the default, the same image"
defart=$("$b/build.sh" -n -K defconfig "$src" v6.1-debian)
unlike "$defart" "^$tinyart\$" "-K defconfig: another image"
# A user's config: the one vanilla 6.1's default build configured, with
# one change of ours (a log buffer of 64 KiB), so it is a real, complete
# .config.
run_rc "$b/build.sh" "$src" v6.1-debian
is "$rc" 0 "vanilla 6.1 (tinyconfig) is built"
sed -e 's/^CONFIG_LOG_BUF_SHIFT=.*/CONFIG_LOG_BUF_SHIFT=16/' "$tinyart/config" >"$T_TMP/my.config"
is "$(grep -c '^CONFIG_LOG_BUF_SHIFT=16$' "$tinyart/config"):$(grep -c '^CONFIG_LOG_BUF_SHIFT=16$' "$T_TMP/my.config")" 0:1 \
	"the user's config changes one option of tinyconfig's (LOG_BUF_SHIFT)"
mine=$("$b/build.sh" -n -K "$T_TMP/my.config" "$src" v6.1-debian)
unlike "$mine" "^$tinyart\$" "-K FILE: another image than tinyconfig's"
cp "$T_TMP/my.config" "$T_TMP/moved.config"
is "$("$b/build.sh" -n -K "$T_TMP/moved.config" "$src" v6.1-debian)" "$mine" \
	"-K FILE: the image is keyed by the file's contents, not its path"
echo 'CONFIG_LOG_BUF_SHIFT=15' >>"$T_TMP/moved.config"
unlike "$("$b/build.sh" -n -K "$T_TMP/moved.config" "$src" v6.1-debian)" "^$mine\$" \
	"-K FILE: changed contents, another image"
k1=$("$b/stages/samples.sh" -d "$src" v6.1-debian -- -K "$T_TMP/my.config")
k2=$("$b/stages/samples.sh" -d "$src" v6.1-debian -- -K "$T_TMP/moved.config")
unlike "$k1" "^$k2\$" "results cache: a changed config file makes another key"

# --- a file base builds, keeps qemu.config, lists what it lost ---------
# The user's config asks for modules and a network; the sealed guest has
# neither: those are listed, not fatal.
printf 'CONFIG_MODULES=y\nCONFIG_NET=y\n' >>"$T_TMP/my.config"
# Configure afresh each time (an earlier run's image and configuration are
# cached): the loss is counted when the config is made. Make then finds
# its objects up to date.
mine=$("$b/build.sh" -n -K "$T_TMP/my.config" "$src" v6.1-debian)
h=${mine##*/}
h=${h#*-}
h=${h%-gcc*}
bdir=$PERFBISECT_HOME/trees/$(pb_sha "$(pb_resolve_repo "$src")")/build-$h
rm -rf "$mine" "$bdir/.perfbisect-config-key"
run_rc "$b/build.sh" -K "$T_TMP/my.config" -l "$T_TMP/mylog" "$src" v6.1-debian
is "$rc" 0 "build.sh -K FILE: builds"
art=$(cat "$T_TMP/out")
like "$(cat "$T_TMP/err")" "warning: .*option\\(s\\) of my\\.config did not survive .*config-dropped\\.txt" \
	"the options the base lost are counted, with the list's path"
like "$(cat "$T_TMP/err")" "did not survive .*: $bdir/config-dropped\\.txt" "the list is in the build dir"
like "$(cat "$bdir/config-dropped.txt" 2>/dev/null)" 'CONFIG_MODULES \(wanted y, got n\)' "the list names CONFIG_MODULES"
is "$(grep -c '^CONFIG_LOG_BUF_SHIFT=16$' "$art/config")" 1 "the user's choice (LOG_BUF_SHIFT 16) is kept"
is "$(grep -cE '^CONFIG_(SERIAL_8250_CONSOLE|BLK_DEV_INITRD)=y$' "$art/config")" 2 "qemu.config's serial console and initramfs are on"
is "$(jq -r '.base' "$art/build.json")" my.config "build.json names the base"
# A fragment that turns the serial console off: the guest could not
# report, so the configuration stops before make, naming the option.
printf '# CONFIG_SERIAL_8250 is not set\n' >"$T_TMP/noserial.config"
run_rc "$b/build.sh" -K "$T_TMP/my.config" -c "$T_TMP/noserial.config" "$src" v6.1-debian
is "$rc" 8 "a config without a serial console: exit 8 before the build"
like "$(cat "$T_TMP/err")" 'CONFIG_SERIAL_8250_CONSOLE \(wanted y, got n\)' "the error names the console option"

# --- and it measures ---------------------------------------------------
run_rc "$b/measure.sh" -K "$T_TMP/my.config" -T 10 -J 5 -n 2 -w 0 -d det -o "$T_TMP/measure" "$src" v6.1-debian
is "$rc" 0 "measure.sh -K FILE -d det: boots and measures"
is "$(grep -c ' sample=' "$T_TMP/measure/results")" 2 "two samples from the kernel of the user's config"
done_testing
