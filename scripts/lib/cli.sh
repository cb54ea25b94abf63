# SPDX-License-Identifier: GPL-2.0-only
# The command line of the project's bash scripts, as tools/cli.c is the C
# programs': one option table per script, from which the parser, --help
# and --version come.  A script sources this, then:
#
#   cli_program NAME USAGE ABOUT    USAGE: the forms after the name, one
#                                   per line
#   cli_option S LONG ARG HELP      one row: S the short letter or -, ARG
#                                   the value's name or - for a flag,
#                                   HELP one line
#   cli_alias OLD LONG              an old spelling (-x or --name) of
#                                   option LONG: it works as LONG after
#                                   one line on stderr, "NAME: OLD is now
#                                   --LONG"; --help does not list it
#   cli_footer TEXT                 after the options: environment, docs,
#                                   and a line "Exit: ..." with the codes
#   cli_parse "$@"                  fills OPT[LONG] (a flag: 1; a value
#                                   given twice: the last) and ARGS (the
#                                   other arguments, in order)
#   cli_number OPT VALUE LO HI      a whole number from LO to HI, or exit 2
#   cli_duration OPT VALUE LO HI    a time from LO to HI seconds (90, 90s,
#                                   2m, 1h) into cli_seconds, or exit 2
#
# Long options may be abbreviated while unique; --name=VALUE, -x VALUE
# and -xVALUE work; -- ends the options.  An unknown option, a missing
# value: one line on stderr, exit 2.  -h/--help and --version print and
# exit 0.  tests/check_options.py compares a script's cli_option lines
# with what it reads (${OPT[...]}), its --help and its docs.

declare -A OPT=()
ARGS=()
_cli_short=() _cli_long=() _cli_arg=() _cli_help=() _cli_old=() _cli_now=()
_cli_root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)

cli_program() {
	_cli_name=$1 _cli_usage=$2 _cli_about=$3 _cli_footer=""
}

cli_option() {
	_cli_short+=("$1") _cli_long+=("$2") _cli_arg+=("$3") _cli_help+=("$4")
}

cli_alias() {
	_cli_old+=("$1") _cli_now+=("$2")
}

cli_footer() {
	_cli_footer=$1
}

# One line on stderr and exit 2: bad usage.
cli_fail() {
	echo "$_cli_name: $*" >&2
	exit 2
}

# The project's version: project(dpmfuzz VERSION ...) of the top
# CMakeLists.txt, which the C programs get through CMake.
cli_project_version() {
	sed -n 's/^project(dpmfuzz VERSION \([0-9.]*\).*/\1/p' "$_cli_root/CMakeLists.txt"
}

cli_help() {
	local first=1 line i spec
	while IFS= read -r line; do
		if [ $first = 1 ]; then
			printf 'usage: %s%s\n' "$_cli_name" "${line:+ $line}"
			first=0
		else
			printf '       %s%s\n' "$_cli_name" "${line:+ $line}"
		fi
	done <<<"$_cli_usage"
	printf '%s\n\nOptions:\n' "$_cli_about"
	for i in "${!_cli_long[@]}"; do
		if [ "${_cli_short[$i]}" = - ]; then spec="    --${_cli_long[$i]}"
		else spec="-${_cli_short[$i]}, --${_cli_long[$i]}"; fi
		[ "${_cli_arg[$i]}" = - ] || spec+=" ${_cli_arg[$i]}"
		if [ ${#spec} -le 26 ]; then
			printf '  %-28s%s\n' "$spec" "${_cli_help[$i]}"
		else
			printf '  %s  %s\n' "$spec" "${_cli_help[$i]}"
		fi
	done
	[ -z "$_cli_footer" ] || printf '\n%s\n' "$_cli_footer"
}

# The row of long option $1 in _cli_i, or -1.
_cli_row() {
	local i
	_cli_i=-1
	for i in "${!_cli_long[@]}"; do
		[ "${_cli_long[$i]}" != "$1" ] || { _cli_i=$i; return; }
	done
}

# Alias k's note: "NAME: -d is now -n", "NAME: --cap is now --time".
_cli_note() {
	local now=--${_cli_now[$1]}
	[[ ${_cli_old[$1]} == --* ]] || [ "${_cli_short[$_cli_i]}" = - ] || now=-${_cli_short[$_cli_i]}
	echo "$_cli_name: ${_cli_old[$1]} is now $now" >&2
}

# The row of option $1 (-x, --long, an alias, or a unique prefix of a
# long name or alias; a row and its aliases are one option) in _cli_i.
_cli_find() {
	local i k n=0 name=${1#--} rows=" " via=-1
	_cli_i=-1
	for i in "${!_cli_long[@]}"; do
		if [[ $1 == --* ]]; then
			if [ "${_cli_long[$i]}" = "$name" ]; then _cli_i=$i; return; fi
			[[ ${_cli_long[$i]} == "$name"* ]] && { n=$((n + 1)); _cli_i=$i; rows+="$i "; }
		elif [ "-${_cli_short[$i]}" = "$1" ]; then
			_cli_i=$i; return
		fi
	done
	for k in "${!_cli_old[@]}"; do
		if [ "${_cli_old[$k]}" = "$1" ]; then
			_cli_row "${_cli_now[$k]}"; _cli_note "$k"; return
		fi
		[[ $1 == --* && ${_cli_old[$k]} == "$1"* ]] || continue
		_cli_row "${_cli_now[$k]}"
		[[ $rows == *" $_cli_i "* ]] || { n=$((n + 1)); rows+="$_cli_i "; via=$k; }
	done
	[ $n -ne 1 ] || [ $via -lt 0 ] || { _cli_row "${_cli_now[$via]}"; _cli_note "$via"; return; }
	[ $n -ne 1 ] || _cli_i=${rows// /}
	if [ $n -gt 1 ]; then
		cli_fail "ambiguous option '$1' ($_cli_name --help lists the options)"
	elif [ $n -eq 0 ]; then
		cli_fail "unknown option '$1' ($_cli_name --help lists the options)"
	fi
}

cli_parse() {
	local a name val has
	cli_option h help - "print this help and exit"
	cli_option - version - "print the script's name and dpmfuzz's version and exit"
	while [ $# -gt 0 ]; do
		a=$1
		shift
		case $a in
		--) ARGS+=("$@"); break ;;
		--?*=*) name=${a%%=*} val=${a#*=} has=1 ;;
		--?*) name=$a has=0 ;;
		-?*) name=${a:0:2} val=${a:2} has=0; [ ${#a} -gt 2 ] && has=1 ;;
		*) ARGS+=("$a"); continue ;;
		esac
		_cli_find "$name"
		case ${_cli_long[$_cli_i]} in
		help) cli_help; exit 0 ;;
		version) echo "$_cli_name (dpmfuzz) $(cli_project_version)"; exit 0 ;;
		esac
		if [ "${_cli_arg[$_cli_i]}" = - ]; then
			[ $has = 0 ] || cli_fail "$name takes no value, not '$a' ($_cli_name --help lists the options)"
			val=1
		elif [ $has = 0 ]; then
			[ $# -gt 0 ] || cli_fail "$name needs a value (${_cli_arg[$_cli_i]})"
			val=$1
			shift
		fi
		OPT[${_cli_long[$_cli_i]}]=$val
	done
}

# "90s", "2m", "1h": $1 seconds in the largest unit that divides them.
_cli_spell_time() {
	if [ "$1" -ne 0 ] && [ $(($1 % 3600)) -eq 0 ]; then echo "$(($1 / 3600))h"
	elif [ "$1" -ne 0 ] && [ $(($1 % 60)) -eq 0 ]; then echo "$(($1 / 60))m"
	else echo "${1}s"; fi
}

# A time from $3 to $4 seconds (option $1, value $2: seconds, or a whole
# number with s, m or h) into cli_seconds, or cli_fail.
cli_duration() {
	local v=$2 n u=1
	if [[ $v =~ ^([0-9]{1,12})([smh]?)$ ]]; then
		n=$((10#${BASH_REMATCH[1]}))
		case ${BASH_REMATCH[2]} in m) u=60 ;; h) u=3600 ;; esac
		if [ "$n" -le $(($4 / u)) ] && [ $((n * u)) -ge "$3" ]; then
			cli_seconds=$((n * u))
			return
		fi
	fi
	cli_fail "$1 wants a time from $(_cli_spell_time "$3") to $(_cli_spell_time "$4"): seconds, or with s, m or h (90, 90s, 2m, 1h), not '$v'"
}

# A whole number from $3 to $4 (option $1, value $2), or cli_fail.
cli_number() {
	local v=$2
	if ! [[ $v =~ ^[0-9]+$ ]] || [ ${#v} -gt 18 ] || [ "$((10#$v))" -lt "$3" ] || [ "$((10#$v))" -gt "$4" ]; then
		cli_fail "$1 wants a number from $3 to $4, not '$v'"
	fi
}
