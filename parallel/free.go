package parallel

import "sync"

// Free is a free list of objects that one goroutine at a time may use (a
// Z3 context, a decider that owns one), for work that has no fixed
// workers: Get hands out a free object or makes one, Put gives it back,
// so there are never more objects than concurrent users. The zero value is
// an empty list; it is safe for concurrent use.
type Free[T any] struct {
	mu   sync.Mutex
	free []T
}

// Get returns a free object, or the result of mk if there is none.
func (f *Free[T]) Get(mk func() (T, error)) (T, error) {
	f.mu.Lock()
	if n := len(f.free); n > 0 {
		x := f.free[n-1]
		f.free = f.free[:n-1]
		f.mu.Unlock()
		return x, nil
	}
	f.mu.Unlock()
	return mk()
}

// Put makes x free for the next Get.
func (f *Free[T]) Put(x T) {
	f.mu.Lock()
	f.free = append(f.free, x)
	f.mu.Unlock()
}

// Drain removes the free objects and returns them (to be closed).
func (f *Free[T]) Drain() []T {
	f.mu.Lock()
	defer f.mu.Unlock()
	free := f.free
	f.free = nil
	return free
}
