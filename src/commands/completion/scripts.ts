/** The shells `b2bctl completion` writes a script for. */
export const completionShells = ['bash', 'zsh', 'fish'] as const;
export type CompletionShell = (typeof completionShells)[number];

/**
 * Each script only asks `b2bctl __complete -- WORDS...` for the candidates, one per line, so what is offered comes
 * from the installed b2bctl's own command tree at every TAB (it cannot drift from the commands) and profile names
 * from the config folder as it is then. No candidates leaves the shell's file-name completion (FILE arguments).
 */
export function completionScript(shell: CompletionShell): string {
  switch (shell) {
    case 'bash':
      return `# b2bctl completion for bash. Load it with:  source <(b2bctl completion bash)
# or install it:  b2bctl completion bash > /etc/bash_completion.d/b2bctl
_b2bctl_complete() {
  local -a words=()
  local i joined=0 candidates
  # Readline splits --flag=value at '=' (COMP_WORDBREAKS): the pieces are joined back into the word b2bctl reads.
  for ((i = 1; i <= COMP_CWORD; i++)); do
    if [[ \${COMP_WORDS[i]} == = && \${#words[@]} -gt 0 && \${words[-1]} == --* ]]; then
      words[-1]+==
      joined=1
    elif ((joined)); then
      words[-1]+=\${COMP_WORDS[i]}
      joined=0
    else
      words+=("\${COMP_WORDS[i]}")
    fi
  done
  candidates=$(b2bctl __complete -- "\${words[@]}" 2>/dev/null)
  COMPREPLY=()
  [[ -n $candidates ]] && mapfile -t COMPREPLY <<<"$candidates"
  # Readline replaces only what follows the '=': the candidates (--output=json) lose their flag.
  if [[ \${words[-1]} == --*=* ]]; then COMPREPLY=("\${COMPREPLY[@]#*=}"); fi
}
complete -o default -F _b2bctl_complete b2bctl
`;
    case 'zsh':
      return `#compdef b2bctl
# b2bctl completion for zsh. Load it with:  source <(b2bctl completion zsh)
# or install it as _b2bctl in a folder of $fpath.
_b2bctl() {
  local -a lines values displays
  local line
  local -i width=0
  lines=("\${(@f)$(b2bctl __complete --descriptions -- "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  if (( \${#lines} )) && [[ -n \${lines[1]} ]]; then
    for line in "\${lines[@]}"; do
      values+=("\${line%%$'\\t'*}")
      (( \${#values[-1]} > width )) && width=\${#values[-1]}
    done
    # Each description starts in one column, past the longest candidate, as fish lines them up.
    for line in "\${lines[@]}"; do
      if [[ $line == *$'\\t'* ]]; then displays+=("\${(r:width:)\${line%%$'\\t'*}}  -- \${line#*$'\\t'}"); else displays+=("$line"); fi
    done
    compadd -l -d displays -- "\${values[@]}"
  else
    _files
  fi
}
# Autoloaded from $fpath, this file runs at the first TAB as the function _b2bctl: it completes that TAB too.
# Sourced, it registers the function.
if [[ \${funcstack[1]} == _b2bctl ]]; then
  _b2bctl "$@"
elif (( $+functions[compdef] )); then
  compdef _b2bctl b2bctl
fi
`;
    case 'fish':
      return `# b2bctl completion for fish. Install it:  b2bctl completion fish > ~/.config/fish/completions/b2bctl.fish
function __b2bctl_complete
    set -l words (commandline -opc)
    set -e words[1]
    set -l candidates (b2bctl __complete --descriptions -- $words (commandline -ct) 2>/dev/null)
    if test (count $candidates) -gt 0
        printf '%s\\n' $candidates
    else
        __fish_complete_path (commandline -ct)
    end
end
complete -c b2bctl -f -a '(__b2bctl_complete)'
`;
  }
}
