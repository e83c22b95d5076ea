// Sets the Swift runtime's global-executor hook, which a statically linked runtime hides from dlsym.
#ifndef PINHOLE_EXECUTOR_HOOK_H
#define PINHOLE_EXECUTOR_HOOK_H

/// Receives each job that Swift concurrency would hand to its global executor (a `Job *`,
/// which Swift reads as an `UnownedJob`).
typedef void (*pinhole_job_sink)(void *job);

/// Makes the Swift runtime hand every job for its global executor to `sink` instead of
/// Dispatch's threads, by setting `swift_task_enqueueGlobal_hook` (referenced from this link, so
/// it resolves whether the runtime is a shared library or linked statically, where its symbols
/// are not exported and NIO's dlsym finds nothing). Returns 1 when installed, 0 when a hook was
/// already set (nothing changed). Call once, before any Swift concurrency work.
int pinhole_install_global_enqueue(pinhole_job_sink sink);

#endif
