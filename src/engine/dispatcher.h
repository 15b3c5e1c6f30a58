/* The dispatcher thread (dispatcher.c): queued jobs -> active batches. */
#ifndef CUZK_ENGINE_DISPATCHER_H
#define CUZK_ENGINE_DISPATCHER_H

/* The thread's body; arg is the engine.  Returns once the engine stops and
 * the queue is empty, after setting dispatcher_done. */
void *dispatcher_main(void *arg);

#endif
