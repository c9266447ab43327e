# bash completion for triage(1)
