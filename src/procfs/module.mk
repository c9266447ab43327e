# The bpf task door's user side includes the task iterator's skeleton.
$(OUTPUT)/src/procfs/task_bpf.o: $(BPF_SKELS)
