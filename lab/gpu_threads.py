"""lab/gpu_threads.py: the lab's CUDA probes drive each GPU from a host thread of its own, all
starting together; this times one such pass (imported by multi_gpu_cuda.py and link_bound.py)."""
import threading
import time


def timed_on_gpus(G, work):
    """Runs work(g, start) on G threads, g = 0..G-1. Each sets itself up, calls start() when ready
    and then does the timed work. Returns the seconds from the moment all are ready to the last
    one done; raises the first thread's exception, if any (the others are released at once)."""
    barrier = threading.Barrier(G + 1)
    errors = []

    def body(g):
        try:
            work(g, barrier.wait)
        except Exception as e:  # noqa: BLE001: raised again below
            errors.append(e)
            barrier.abort()

    threads = [threading.Thread(target=body, args=(g,)) for g in range(G)]
    for t in threads:
        t.start()
    try:
        barrier.wait()
    except threading.BrokenBarrierError:
        pass
    t0 = time.perf_counter()
    for t in threads:
        t.join()
    t1 = time.perf_counter()
    if errors:
        raise errors[0]
    return t1 - t0
