# llctrace.bash - bash completion for llctrace: commands, each command's options (from
# `llctrace __complete options CMD`, its option table), policy names (from `llctrace __complete`, the program's own registry), and file
# names where a file is wanted. (`llctrace __complete grid-keys` lists a grid file's keys, for
# an editor.) Installed as
# share/bash-completion/completions/llctrace; or: source scripts/llctrace.bash
_llctrace() {
	local cur prev cmd words
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	local prog=${COMP_WORDS[0]}
	if [ "$COMP_CWORD" -eq 1 ]; then
		COMPREPLY=($(compgen -W "$("$prog" __complete commands 2>/dev/null) --help --version" -- "$cur"))
		return
	fi
	cmd=${COMP_WORDS[1]}
	case "$prev" in
	-p|--policy)
		# a comma list: complete its last name
		local head=${cur%,*} last=${cur##*,}
		[ "$head" = "$cur" ] && head="" || head="$head,"
		COMPREPLY=($(compgen -P "$head" -W "$("$prog" __complete policies 2>/dev/null)" -- "$last"))
		return ;;
	-o|--output|--csv|-O)
		COMPREPLY=($(compgen -f -- "$cur")); return ;;
	esac
	if [ "$cmd" = help ]; then
		COMPREPLY=($(compgen -W "$("$prog" __complete commands 2>/dev/null)" -- "$cur"))
		return
	fi
	if [[ "$cur" == -* ]]; then
		words=$("$prog" __complete options "$cmd" 2>/dev/null)
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		return
	fi
	COMPREPLY=($(compgen -f -- "$cur"))
}
complete -o filenames -F _llctrace llctrace
