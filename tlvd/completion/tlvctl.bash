# bash completion for tlvctl(8)                            -*- shell-script -*-

_tlvctl_types="tel ra calipso pmtu ioam jumbo hao exp-1e exp-3e exp-5e exp-7e exp-9e exp-be exp-de exp-fe"
_tlvctl_keys="order class admin user align length length-mult"

_tlvctl()
{
    local cur prev words cword
    _init_completion 2>/dev/null || {
        cur=${COMP_WORDS[COMP_CWORD]}
        prev=${COMP_WORDS[COMP_CWORD-1]}
        words=("${COMP_WORDS[@]}")
        cword=$COMP_CWORD
    }

    # find the command, skipping global options
    local i cmd="" cmd_at=0
    for ((i = 1; i < cword; i++)); do
        case ${words[i]} in
            -*) ;;
            *) cmd=${words[i]}; cmd_at=$i; break ;;
        esac
    done

    if [[ -z $cmd ]]; then
        COMPREPLY=($(compgen -W "show showconf monitor set unset del apply check diff help --json --help --version" -- "$cur"))
        return
    fi

    local argn=$((cword - cmd_at))
    case $cmd in
        show)
            COMPREPLY=($(compgen -W "$_tlvctl_types --all --json --help" -- "$cur"))
            ;;
        unset|del)
            [[ $argn -eq 1 ]] && COMPREPLY=($(compgen -W "$_tlvctl_types" -- "$cur"))
            ;;
        apply|check|diff)
            if [[ $cur == -* ]]; then
                COMPREPLY=($(compgen -W "--json --help" -- "$cur"))
            else
                COMPREPLY=($(compgen -f -- "$cur"))
            fi
            ;;
        set)
            if [[ $argn -eq 1 ]]; then
                COMPREPLY=($(compgen -W "$_tlvctl_types" -- "$cur"))
            elif (( argn % 2 == 0 )); then
                COMPREPLY=($(compgen -W "$_tlvctl_keys" -- "$cur"))
            else
                case $prev in
                    admin|user) COMPREPLY=($(compgen -W "none check nocheck" -- "$cur")) ;;
                    class) COMPREPLY=($(compgen -W "hop dst rtrdst hop,dst" -- "$cur")) ;;
                    align|length-mult) COMPREPLY=($(compgen -W "1n+0 2n+0 4n+0 4n+2 8n+6" -- "$cur")) ;;
                esac
            fi
            ;;
    esac
} &&
complete -F _tlvctl tlvctl

_tlvd()
{
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    case $prev in
        -c|--config|-t|--check) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        -i|--interval) return ;;
    esac
    COMPREPLY=($(compgen -W "--config --interval --check --help --version" -- "$cur"))
} &&
complete -F _tlvd tlvd

# ex: filetype=sh
