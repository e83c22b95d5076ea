// Sets the Swift runtime's global-executor hook, which a statically linked runtime hides from dlsym.
#include "executor_hook.h"

#include <stddef.h>

// The runtime's declaration (swift/Runtime/ConcurrencyHooks.def): a Swift-calling-convention
// function taking the job and the original enqueue function.
typedef void (__attribute__((swiftcall)) *pinhole_enqueue_global_hook)(void *job, void *original);
extern pinhole_enqueue_global_hook swift_task_enqueueGlobal_hook;

static pinhole_job_sink installed_sink;

static void __attribute__((swiftcall)) pinhole_enqueue_global(void *job, void *original) {
    (void)original;
    installed_sink(job);
}

int pinhole_install_global_enqueue(pinhole_job_sink sink) {
    if (installed_sink != NULL) return 0;
    installed_sink = sink;
    pinhole_enqueue_global_hook expected = NULL;
    return __atomic_compare_exchange_n(&swift_task_enqueueGlobal_hook, &expected, pinhole_enqueue_global, 0,
                                       __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)
               ? 1
               : 0;
}
