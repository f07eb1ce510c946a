switch.o: /work/wt-pma/hw/loop/switch.c include/linux/compiler-version.h \
 include/linux/kconfig.h include/generated/autoconf.h \
 include/linux/compiler_types.h include/linux/compiler-context-analysis.h \
 include/linux/compiler_attributes.h include/linux/compiler-gcc.h \
 include/linux/rcupdate.h include/linux/types.h \
 include/uapi/linux/types.h arch/x86/include/generated/uapi/asm/types.h \
 include/uapi/asm-generic/types.h include/asm-generic/int-ll64.h \
 include/uapi/asm-generic/int-ll64.h \
 arch/x86/include/uapi/asm/bitsperlong.h \
 include/asm-generic/bitsperlong.h include/uapi/asm-generic/bitsperlong.h \
 include/uapi/linux/posix_types.h include/linux/stddef.h \
 include/uapi/linux/stddef.h include/linux/compiler_types.h \
 arch/x86/include/asm/posix_types.h \
 arch/x86/include/uapi/asm/posix_types_64.h \
 include/uapi/asm-generic/posix_types.h include/linux/compiler.h \
 arch/x86/include/generated/asm/rwonce.h include/asm-generic/rwonce.h \
 include/linux/kasan-checks.h include/linux/kcsan-checks.h \
 include/linux/atomic.h arch/x86/include/asm/atomic.h \
 arch/x86/include/asm/alternative.h include/linux/stringify.h \
 arch/x86/include/asm/asm.h arch/x86/include/asm/extable_fixup_types.h \
 arch/x86/include/asm/bug.h include/linux/instrumentation.h \
 include/linux/objtool.h include/linux/objtool_types.h \
 include/asm-generic/bug.h include/linux/once_lite.h \
 include/linux/panic.h include/linux/printk.h include/linux/stdarg.h \
 include/linux/init.h include/linux/build_bug.h \
 include/linux/kern_levels.h include/linux/linkage.h \
 include/linux/export.h arch/x86/include/asm/linkage.h \
 arch/x86/include/asm/ibt.h include/linux/ratelimit_types.h \
 include/linux/bits.h include/linux/const.h include/vdso/const.h \
 include/uapi/linux/const.h include/vdso/bits.h include/uapi/linux/bits.h \
 include/linux/overflow.h include/linux/limits.h \
 include/uapi/linux/limits.h include/vdso/limits.h \
 include/uapi/linux/param.h arch/x86/include/generated/uapi/asm/param.h \
 include/asm-generic/param.h include/uapi/asm-generic/param.h \
 include/linux/spinlock_types_raw.h arch/x86/include/asm/spinlock_types.h \
 include/asm-generic/qspinlock_types.h \
 include/asm-generic/qrwlock_types.h \
 arch/x86/include/uapi/asm/byteorder.h \
 include/linux/byteorder/little_endian.h \
 include/uapi/linux/byteorder/little_endian.h include/linux/swab.h \
 include/uapi/linux/swab.h arch/x86/include/uapi/asm/swab.h \
 include/linux/byteorder/generic.h include/linux/lockdep_types.h \
 arch/x86/include/asm/cmpxchg.h arch/x86/include/asm/cpufeatures.h \
 arch/x86/include/asm/required-features.h \
 arch/x86/include/asm/disabled-features.h \
 arch/x86/include/asm/cmpxchg_64.h arch/x86/include/asm/rmwcc.h \
 include/linux/args.h arch/x86/include/asm/barrier.h \
 arch/x86/include/asm/nops.h include/asm-generic/barrier.h \
 arch/x86/include/asm/atomic64_64.h \
 include/linux/atomic/atomic-arch-fallback.h \
 include/linux/atomic/atomic-long.h \
 include/linux/atomic/atomic-instrumented.h include/linux/instrumented.h \
 include/linux/kmsan-checks.h include/linux/irqflags.h \
 include/linux/irqflags_types.h include/linux/typecheck.h \
 include/linux/cleanup.h arch/x86/include/asm/irqflags.h \
 arch/x86/include/asm/processor-flags.h \
 arch/x86/include/uapi/asm/processor-flags.h include/linux/mem_encrypt.h \
 arch/x86/include/asm/mem_encrypt.h include/linux/cc_platform.h \
 arch/x86/include/asm/nospec-branch.h include/linux/static_key.h \
 include/linux/jump_label.h include/linux/bug.h \
 arch/x86/include/asm/msr-index.h arch/x86/include/asm/unwind_hints.h \
 arch/x86/include/asm/orc_types.h arch/x86/include/asm/percpu.h \
 include/asm-generic/percpu.h include/linux/threads.h \
 include/linux/percpu-defs.h arch/x86/include/asm/current.h \
 include/linux/cache.h include/uapi/linux/kernel.h \
 include/uapi/linux/sysinfo.h arch/x86/include/asm/cache.h \
 arch/x86/include/asm/segment.h include/linux/preempt.h \
 arch/x86/include/asm/preempt.h include/linux/static_call_types.h \
 include/linux/bottom_half.h include/linux/instruction_pointer.h \
 include/linux/lockdep.h include/linux/smp.h include/linux/errno.h \
 include/uapi/linux/errno.h arch/x86/include/generated/uapi/asm/errno.h \
 include/uapi/asm-generic/errno.h include/uapi/asm-generic/errno-base.h \
 include/linux/list.h include/linux/container_of.h include/linux/poison.h \
 include/linux/cpumask.h include/linux/kernel.h include/linux/align.h \
 include/linux/array_size.h include/linux/bitops.h \
 include/asm-generic/bitops/generic-non-atomic.h \
 arch/x86/include/asm/bitops.h include/asm-generic/bitops/sched.h \
 arch/x86/include/asm/arch_hweight.h \
 include/asm-generic/bitops/const_hweight.h \
 include/asm-generic/bitops/instrumented-atomic.h \
 include/asm-generic/bitops/instrumented-non-atomic.h \
 include/asm-generic/bitops/instrumented-lock.h \
 include/asm-generic/bitops/le.h \
 include/asm-generic/bitops/ext2-atomic-setbit.h include/linux/hex.h \
 include/linux/kstrtox.h include/linux/log2.h include/linux/math.h \
 arch/x86/include/asm/div64.h include/asm-generic/div64.h \
 include/linux/minmax.h include/linux/sprintf.h include/linux/wordpart.h \
 include/linux/bitmap.h include/linux/find.h include/linux/string.h \
 include/linux/err.h include/uapi/linux/string.h \
 arch/x86/include/asm/string.h arch/x86/include/asm/string_64.h \
 include/linux/fortify-string.h include/linux/bitfield.h \
 include/linux/bitmap-str.h include/linux/cpumask_types.h \
 include/linux/gfp_types.h include/linux/numa.h include/linux/smp_types.h \
 include/linux/llist.h include/linux/thread_info.h \
 include/linux/restart_block.h arch/x86/include/asm/thread_info.h \
 arch/x86/include/asm/page.h arch/x86/include/asm/page_types.h \
 arch/x86/include/asm/page_64_types.h arch/x86/include/asm/kaslr.h \
 arch/x86/include/asm/page_64.h include/linux/range.h \
 include/asm-generic/memory_model.h include/linux/pfn.h \
 include/asm-generic/getorder.h arch/x86/include/asm/cpufeature.h \
 arch/x86/include/asm/processor.h arch/x86/include/asm/math_emu.h \
 arch/x86/include/asm/ptrace.h arch/x86/include/uapi/asm/ptrace.h \
 arch/x86/include/uapi/asm/ptrace-abi.h arch/x86/include/asm/proto.h \
 arch/x86/include/uapi/asm/ldt.h arch/x86/include/uapi/asm/sigcontext.h \
 arch/x86/include/asm/cpuid.h arch/x86/include/asm/pgtable_types.h \
 arch/x86/include/asm/pgtable_64_types.h arch/x86/include/asm/sparsemem.h \
 arch/x86/include/asm/desc_defs.h arch/x86/include/asm/special_insns.h \
 arch/x86/include/asm/fpu/types.h arch/x86/include/asm/vmxfeatures.h \
 arch/x86/include/asm/vdso/processor.h arch/x86/include/asm/shstk.h \
 include/linux/personality.h include/uapi/linux/personality.h \
 include/linux/math64.h include/vdso/math64.h arch/x86/include/asm/smp.h \
 arch/x86/include/asm/cpumask.h include/linux/debug_locks.h \
 include/linux/stacktrace.h include/linux/context_tracking_irq.h \
 include/linux/rcutree.h include/linux/slab.h include/linux/gfp.h \
 include/linux/mmzone.h include/linux/spinlock.h \
 arch/x86/include/generated/asm/mmiowb.h include/asm-generic/mmiowb.h \
 include/linux/spinlock_types.h include/linux/rwlock_types.h \
 arch/x86/include/asm/spinlock.h arch/x86/include/asm/paravirt.h \
 arch/x86/include/asm/paravirt_types.h arch/x86/include/asm/qspinlock.h \
 include/asm-generic/qspinlock.h arch/x86/include/asm/qrwlock.h \
 include/asm-generic/qrwlock.h include/linux/rwlock.h \
 include/linux/spinlock_api_smp.h include/linux/rwlock_api_smp.h \
 include/linux/list_nulls.h include/linux/wait.h include/linux/seqlock.h \
 include/linux/mutex.h include/linux/osq_lock.h \
 include/linux/mutex_types.h include/linux/seqlock_types.h \
 include/linux/nodemask.h include/linux/nodemask_types.h \
 include/linux/random.h include/uapi/linux/random.h \
 include/uapi/linux/ioctl.h arch/x86/include/generated/uapi/asm/ioctl.h \
 include/asm-generic/ioctl.h include/uapi/asm-generic/ioctl.h \
 include/linux/irqnr.h include/uapi/linux/irqnr.h include/linux/prandom.h \
 include/linux/once.h include/linux/pageblock-flags.h \
 include/linux/page-flags-layout.h include/generated/bounds.h \
 include/linux/mm_types.h include/linux/mm_types_task.h \
 arch/x86/include/asm/tlbbatch.h include/linux/auxvec.h \
 include/uapi/linux/auxvec.h arch/x86/include/uapi/asm/auxvec.h \
 include/linux/kref.h include/linux/refcount.h \
 include/linux/refcount_types.h include/linux/rbtree.h \
 include/linux/rbtree_types.h include/linux/maple_tree.h \
 include/linux/rwsem.h include/linux/completion.h include/linux/swait.h \
 include/linux/uprobes.h arch/x86/include/asm/uprobes.h \
 include/linux/notifier.h include/linux/srcu.h include/linux/workqueue.h \
 include/linux/timer.h include/linux/ktime.h include/linux/jiffies.h \
 include/linux/time.h include/linux/time64.h include/vdso/time64.h \
 include/uapi/linux/time.h include/uapi/linux/time_types.h \
 include/linux/time32.h include/linux/timex.h include/uapi/linux/timex.h \
 arch/x86/include/asm/timex.h arch/x86/include/asm/tsc.h \
 arch/x86/include/asm/msr.h arch/x86/include/asm/msr-index.h \
 arch/x86/include/uapi/asm/msr.h arch/x86/include/asm/shared/msr.h \
 include/linux/percpu.h include/linux/alloc_tag.h include/linux/codetag.h \
 include/linux/mmdebug.h include/linux/sched.h include/uapi/linux/sched.h \
 include/linux/pid_types.h include/linux/sem_types.h include/linux/shm.h \
 arch/x86/include/asm/shmparam.h include/linux/kmsan_types.h \
 include/linux/plist_types.h include/linux/hrtimer_types.h \
 include/linux/timerqueue_types.h include/linux/timer_types.h \
 include/linux/seccomp_types.h include/linux/resource.h \
 include/uapi/linux/resource.h \
 arch/x86/include/generated/uapi/asm/resource.h \
 include/asm-generic/resource.h include/uapi/asm-generic/resource.h \
 include/linux/latencytop.h include/linux/sched/prio.h \
 include/linux/sched/types.h include/linux/signal_types.h \
 include/uapi/linux/signal.h arch/x86/include/asm/signal.h \
 arch/x86/include/uapi/asm/signal.h \
 include/uapi/asm-generic/signal-defs.h \
 arch/x86/include/uapi/asm/siginfo.h include/uapi/asm-generic/siginfo.h \
 include/linux/syscall_user_dispatch_types.h \
 include/linux/netdevice_xmit.h include/linux/task_io_accounting.h \
 include/linux/posix-timers_types.h include/uapi/linux/rseq.h \
 include/linux/kcsan.h include/linux/rv.h include/linux/livepatch_sched.h \
 include/linux/uidgid_types.h arch/x86/include/generated/asm/kmap_size.h \
 include/asm-generic/kmap_size.h include/linux/sched/ext.h \
 include/linux/tracepoint-defs.h include/vdso/time32.h \
 include/vdso/time.h include/vdso/jiffies.h include/generated/timeconst.h \
 include/vdso/ktime.h include/linux/timekeeping.h \
 include/linux/clocksource_ids.h include/linux/debugobjects.h \
 include/linux/workqueue_types.h include/linux/rcu_segcblist.h \
 include/linux/srcutree.h include/linux/rcu_node_tree.h \
 include/linux/percpu_counter.h arch/x86/include/asm/mmu.h \
 include/linux/page-flags.h include/linux/local_lock.h \
 include/linux/local_lock_internal.h include/linux/zswap.h \
 include/linux/memory_hotplug.h include/linux/topology.h \
 include/linux/arch_topology.h arch/x86/include/asm/topology.h \
 include/asm-generic/topology.h include/linux/cpu_smt.h \
 include/linux/percpu-refcount.h include/linux/hash.h \
 include/linux/kasan.h include/linux/kasan-enabled.h \
 include/linux/kasan-tags.h arch/x86/include/asm/kasan.h \
 include/linux/pgtable.h arch/x86/include/asm/pgtable.h \
 arch/x86/include/asm/x86_init.h arch/x86/include/asm/pkru.h \
 arch/x86/include/asm/fpu/api.h arch/x86/include/asm/coco.h \
 include/asm-generic/pgtable_uffd.h include/linux/page_table_check.h \
 arch/x86/include/asm/pgtable_64.h arch/x86/include/asm/fixmap.h \
 arch/x86/include/asm/apicdef.h arch/x86/include/uapi/asm/vsyscall.h \
 include/asm-generic/fixmap.h arch/x86/include/asm/pgtable-invert.h \
 /work/wt-pma/include/rdma/ib_mad.h /work/wt-pma/include/rdma/ib_verbs.h \
 include/linux/device.h include/linux/dev_printk.h \
 include/linux/ratelimit.h include/linux/energy_model.h \
 include/linux/kobject.h include/linux/sysfs.h include/linux/kernfs.h \
 include/linux/idr.h include/linux/radix-tree.h include/linux/xarray.h \
 include/linux/kconfig.h include/linux/sched/mm.h \
 include/linux/sync_core.h arch/x86/include/asm/sync_core.h \
 include/linux/sched/coredump.h include/linux/uidgid.h \
 include/linux/highuid.h include/linux/kobject_ns.h include/linux/stat.h \
 arch/x86/include/uapi/asm/stat.h include/uapi/linux/stat.h \
 include/linux/sched/cpufreq.h include/linux/sched/topology.h \
 include/linux/sched/idle.h include/linux/sched/sd_flags.h \
 include/linux/ioport.h include/linux/klist.h include/linux/pm.h \
 include/linux/hrtimer.h include/linux/hrtimer_defs.h \
 include/linux/timerqueue.h include/linux/device/bus.h \
 include/linux/device/class.h include/linux/device/devres.h \
 include/linux/device/driver.h include/linux/module.h \
 include/linux/buildid.h include/linux/kmod.h include/linux/umh.h \
 include/linux/sysctl.h include/uapi/linux/sysctl.h include/linux/elf.h \
 arch/x86/include/asm/elf.h arch/x86/include/asm/ia32.h \
 arch/x86/include/asm/user.h arch/x86/include/asm/user_64.h \
 arch/x86/include/asm/fsgsbase.h arch/x86/include/asm/syscall.h \
 include/uapi/linux/audit.h include/uapi/linux/elf-em.h \
 arch/x86/include/asm/unistd.h arch/x86/include/uapi/asm/unistd.h \
 arch/x86/include/generated/uapi/asm/unistd_64.h \
 arch/x86/include/generated/asm/unistd_64_x32.h \
 arch/x86/include/generated/asm/unistd_32_ia32.h \
 arch/x86/include/asm/vdso.h include/uapi/linux/elf.h \
 include/linux/moduleparam.h include/linux/rbtree_latch.h \
 include/linux/error-injection.h include/asm-generic/error-injection.h \
 include/linux/dynamic_debug.h arch/x86/include/asm/module.h \
 include/asm-generic/module.h arch/x86/include/asm/orc_types.h \
 arch/x86/include/asm/device.h include/linux/pm_wakeup.h \
 include/linux/dim.h include/linux/dma-mapping.h \
 include/linux/dma-direction.h include/linux/scatterlist.h \
 include/linux/mm.h include/linux/pgalloc_tag.h include/linux/mmap_lock.h \
 include/linux/bit_spinlock.h include/linux/shrinker.h \
 include/linux/page_ext.h include/linux/page_ref.h include/linux/sizes.h \
 include/linux/memremap.h include/linux/huge_mm.h include/linux/fs.h \
 include/linux/wait_bit.h include/linux/kdev_t.h \
 include/uapi/linux/kdev_t.h include/linux/dcache.h \
 include/linux/rculist.h include/linux/rculist_bl.h \
 include/linux/list_bl.h include/linux/lockref.h \
 include/linux/stringhash.h include/linux/path.h include/linux/list_lru.h \
 include/linux/pid.h include/linux/capability.h \
 include/uapi/linux/capability.h include/linux/semaphore.h \
 include/linux/fcntl.h include/uapi/linux/fcntl.h \
 arch/x86/include/generated/uapi/asm/fcntl.h \
 include/uapi/asm-generic/fcntl.h include/uapi/linux/openat2.h \
 include/linux/migrate_mode.h include/linux/percpu-rwsem.h \
 include/linux/rcuwait.h include/linux/sched/signal.h \
 include/linux/signal.h include/linux/sched/jobctl.h \
 include/linux/sched/task.h include/linux/uaccess.h \
 include/linux/fault-inject-usercopy.h include/linux/nospec.h \
 arch/x86/include/asm/uaccess.h arch/x86/include/asm/smap.h \
 arch/x86/include/asm/extable.h arch/x86/include/asm/tlbflush.h \
 include/linux/mmu_notifier.h include/linux/interval_tree.h \
 arch/x86/include/asm/invpcid.h arch/x86/include/asm/pti.h \
 arch/x86/include/asm/uaccess_64.h include/asm-generic/access_ok.h \
 include/linux/cred.h include/linux/key.h include/linux/assoc_array.h \
 include/linux/sched/user.h include/linux/posix-timers.h \
 include/linux/alarmtimer.h include/linux/rcu_sync.h \
 include/linux/delayed_call.h include/linux/uuid.h include/linux/errseq.h \
 include/linux/ioprio.h include/linux/sched/rt.h \
 include/linux/iocontext.h include/uapi/linux/ioprio.h \
 include/linux/fs_types.h include/linux/mount.h \
 include/linux/mnt_idmapping.h include/linux/rw_hint.h \
 include/uapi/linux/fs.h include/linux/quota.h \
 include/uapi/linux/dqblk_xfs.h include/linux/dqblk_v1.h \
 include/linux/dqblk_v2.h include/linux/dqblk_qtree.h \
 include/linux/projid.h include/uapi/linux/quota.h \
 include/linux/secretmem.h include/linux/vmstat.h \
 include/linux/vm_event_item.h arch/x86/include/asm/io.h \
 arch/x86/include/generated/asm/early_ioremap.h \
 include/asm-generic/early_ioremap.h arch/x86/include/asm/shared/io.h \
 include/asm-generic/io.h include/asm-generic/iomap.h \
 include/asm-generic/pci_iomap.h include/linux/logic_pio.h \
 include/linux/fwnode.h include/linux/ethtool.h include/linux/compat.h \
 include/linux/sem.h include/uapi/linux/sem.h include/linux/ipc.h \
 include/linux/rhashtable-types.h include/uapi/linux/ipc.h \
 arch/x86/include/generated/uapi/asm/ipcbuf.h \
 include/uapi/asm-generic/ipcbuf.h arch/x86/include/uapi/asm/sembuf.h \
 include/linux/socket.h arch/x86/include/generated/uapi/asm/socket.h \
 include/uapi/asm-generic/socket.h \
 arch/x86/include/generated/uapi/asm/sockios.h \
 include/uapi/asm-generic/sockios.h include/uapi/linux/sockios.h \
 include/linux/uio.h include/uapi/linux/uio.h include/uapi/linux/socket.h \
 include/uapi/linux/if.h include/uapi/linux/libc-compat.h \
 include/uapi/linux/hdlc/ioctl.h include/uapi/linux/aio_abi.h \
 include/uapi/linux/unistd.h arch/x86/include/asm/compat.h \
 include/linux/sched/task_stack.h include/uapi/linux/magic.h \
 arch/x86/include/asm/user32.h include/asm-generic/compat.h \
 arch/x86/include/asm/syscall_wrapper.h include/linux/if_ether.h \
 include/linux/skbuff.h include/linux/bvec.h include/linux/highmem.h \
 include/linux/cacheflush.h arch/x86/include/asm/cacheflush.h \
 include/asm-generic/cacheflush.h include/linux/kmsan.h \
 include/linux/hardirq.h include/linux/context_tracking_state.h \
 include/linux/ftrace_irq.h include/linux/vtime.h \
 arch/x86/include/asm/hardirq.h include/linux/highmem-internal.h \
 include/net/checksum.h arch/x86/include/asm/checksum.h \
 include/asm-generic/checksum.h include/linux/netdev_features.h \
 include/net/flow_dissector.h include/linux/in6.h \
 include/uapi/linux/in6.h include/linux/siphash.h \
 include/uapi/linux/if_ether.h include/uapi/linux/pkt_cls.h \
 include/uapi/linux/pkt_sched.h include/uapi/linux/if_packet.h \
 include/net/flow.h include/net/net_debug.h include/net/dropreason-core.h \
 include/net/netmem.h include/linux/netlink.h include/net/scm.h \
 include/linux/net.h include/linux/sockptr.h include/uapi/linux/net.h \
 include/linux/file.h include/linux/security.h \
 include/linux/kernel_read_file.h include/linux/bpf.h \
 include/uapi/linux/bpf.h include/uapi/linux/bpf_common.h \
 include/uapi/linux/filter.h include/linux/kallsyms.h \
 arch/x86/include/asm/sections.h include/asm-generic/sections.h \
 include/linux/bpfptr.h include/linux/btf.h include/linux/bsearch.h \
 include/linux/btf_ids.h include/uapi/linux/btf.h \
 include/linux/rcupdate_trace.h include/linux/static_call.h \
 include/linux/cpu.h include/linux/node.h include/linux/cpuhotplug.h \
 include/linux/cpuhplock.h arch/x86/include/asm/static_call.h \
 arch/x86/include/asm/text-patching.h include/linux/memcontrol.h \
 include/linux/cgroup.h include/uapi/linux/cgroupstats.h \
 include/uapi/linux/taskstats.h include/linux/seq_file.h \
 include/linux/string_helpers.h include/linux/ctype.h \
 include/linux/string_choices.h include/linux/ns_common.h \
 include/linux/nsproxy.h include/linux/user_namespace.h \
 include/linux/kernel_stat.h include/linux/interrupt.h \
 include/linux/irqreturn.h arch/x86/include/asm/irq.h \
 arch/x86/include/asm/irq_vectors.h include/linux/cgroup-defs.h \
 include/linux/u64_stats_sync.h arch/x86/include/generated/asm/local64.h \
 include/asm-generic/local64.h arch/x86/include/asm/local.h \
 include/linux/bpf-cgroup-defs.h include/linux/psi_types.h \
 include/linux/kthread.h include/linux/page_counter.h \
 include/linux/vmpressure.h include/linux/eventfd.h \
 include/uapi/linux/eventfd.h include/linux/writeback.h \
 include/linux/flex_proportions.h include/linux/backing-dev-defs.h \
 include/linux/blk_types.h include/linux/pagevec.h include/linux/cfi.h \
 arch/x86/include/asm/cfi.h include/uapi/linux/lsm.h include/net/compat.h \
 include/uapi/linux/netlink.h include/uapi/linux/ethtool.h \
 include/uapi/linux/net_tstamp.h include/linux/if_link.h \
 include/uapi/linux/if_link.h include/linux/irq_poll.h \
 include/linux/netdevice.h include/linux/delay.h \
 arch/x86/include/asm/delay.h include/asm-generic/delay.h \
 include/linux/prefetch.h include/linux/dynamic_queue_limits.h \
 include/net/net_namespace.h include/net/netns/core.h \
 include/net/netns/mib.h include/net/snmp.h include/uapi/linux/snmp.h \
 include/net/netns/unix.h include/net/netns/packet.h \
 include/net/netns/ipv4.h include/net/inet_frag.h \
 include/net/netns/ipv6.h include/net/dst_ops.h \
 include/uapi/linux/icmpv6.h include/net/netns/nexthop.h \
 include/net/netns/ieee802154_6lowpan.h include/net/netns/sctp.h \
 include/net/netns/netfilter.h include/linux/netfilter_defs.h \
 include/uapi/linux/netfilter.h include/linux/in.h \
 include/uapi/linux/in.h include/net/netns/nftables.h \
 include/net/netns/xfrm.h include/uapi/linux/xfrm.h \
 include/net/netns/mpls.h include/net/netns/can.h include/net/netns/xdp.h \
 include/net/netns/smc.h include/net/netns/bpf.h include/net/netns/mctp.h \
 include/net/net_trackers.h include/linux/ref_tracker.h \
 include/linux/stackdepot.h include/linux/seq_file_net.h \
 include/net/netprio_cgroup.h include/uapi/linux/neighbour.h \
 include/uapi/linux/netdevice.h include/uapi/linux/if_bonding.h \
 include/uapi/linux/netdev.h include/linux/hashtable.h include/net/ip.h \
 include/linux/ip.h include/uapi/linux/ip.h include/linux/jhash.h \
 include/linux/unaligned/packed_struct.h include/net/inet_sock.h \
 include/net/sock.h include/linux/rculist_nulls.h include/linux/poll.h \
 include/uapi/linux/poll.h arch/x86/include/generated/uapi/asm/poll.h \
 include/uapi/asm-generic/poll.h include/uapi/linux/eventpoll.h \
 include/linux/indirect_call_wrapper.h include/net/dst.h \
 include/linux/rtnetlink.h include/uapi/linux/rtnetlink.h \
 include/uapi/linux/if_addr.h include/linux/rcuref.h \
 include/net/neighbour.h include/net/rtnetlink.h include/net/netlink.h \
 include/net/tcp_states.h include/linux/net_tstamp.h include/net/l3mdev.h \
 include/net/fib_rules.h include/uapi/linux/fib_rules.h \
 include/net/fib_notifier.h include/net/request_sock.h \
 include/net/rstreason.h include/uapi/linux/mptcp.h \
 include/uapi/linux/mptcp_pm.h include/net/netns/hash.h \
 include/net/route.h include/net/inetpeer.h include/net/ipv6.h \
 include/linux/ipv6.h include/uapi/linux/ipv6.h include/linux/tcp.h \
 include/linux/win_minmax.h include/net/inet_connection_sock.h \
 include/net/inet_timewait_sock.h include/net/timewait_sock.h \
 include/uapi/linux/tcp.h include/linux/udp.h include/uapi/linux/udp.h \
 include/linux/jump_label_ratelimit.h include/net/if_inet6.h \
 include/net/inet_dscp.h include/net/ip_fib.h \
 include/uapi/linux/in_route.h include/net/arp.h include/linux/if_arp.h \
 include/uapi/linux/if_arp.h include/net/ndisc.h include/net/ipv6_stubs.h \
 include/linux/icmpv6.h include/uapi/linux/route.h include/net/lwtunnel.h \
 include/uapi/linux/lwtunnel.h /work/wt-pma/uapi/rdma/ib_user_verbs.h \
 /work/wt-pma/uapi/rdma/ib_user_ioctl_verbs.h \
 /work/wt-pma/uapi/rdma/ib_user_verbs.h \
 /work/wt-pma/uapi/rdma/rdma_netlink.h \
 /work/wt-pma/include/rdma/restrack.h \
 /work/wt-pma/include/rdma/signature.h \
 /work/wt-pma/uapi/rdma/ib_user_mad.h \
 /work/wt-pma/uapi/rdma/rdma_user_ioctl.h \
 /work/wt-pma/uapi/rdma/ib_user_mad.h \
 /work/wt-pma/uapi/rdma/hfi/hfi1_ioctl.h \
 /work/wt-pma/uapi/rdma/rdma_user_ioctl_cmds.h \
 /work/wt-pma/hw/loop/loop.h /work/wt-pma/include/rdma/rdma_loop.h \
 /work/wt-pma/include/rdma/rdma_vt.h \
 /work/wt-pma/include/rdma/rdmavt_mr.h \
 /work/wt-pma/include/rdma/rdmavt_cq.h \
 /work/wt-pma/include/rdma/rdmavt_qp.h /work/wt-pma/hw/loop/switch.h \
 /work/wt-pma/include/rdma/ib_smi.h
