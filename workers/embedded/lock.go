package embedded

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// ErrLocked means another process holds the data directory's lock; its
// servers' addresses are in the StackFile it wrote.
var ErrLocked = errors.New("data directory is in use by another ace process")

// DirLock is an exclusive advisory lock (flock) on a data directory. The
// kernel drops it when the process dies, kill -9 included, so a stale lock
// never blocks a restart.
type DirLock struct {
	f    *os.File
	path string
}

// LockDir takes the lock file dir/ace.lock without blocking. It returns an
// error wrapping ErrLocked (naming the holder's pid when known) when another
// process holds it.
func LockDir(dir string) (*DirLock, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("data dir %s: %w (set ACE_DATA_DIR to a writable directory)", dir, err)
	}
	path := filepath.Join(dir, "ace.lock")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		holder, _ := os.ReadFile(path)
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			pid := strings.TrimSpace(string(holder))
			return nil, fmt.Errorf("%s (pid %s holds %s): %w", dir, pid, path, ErrLocked)
		}
		return nil, fmt.Errorf("lock %s: %w", path, err)
	}
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &DirLock{f: f, path: path}, nil
}

// Unlock releases the lock. It is safe to call more than once.
func (l *DirLock) Unlock() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := syscall.Flock(int(l.f.Fd()), syscall.LOCK_UN)
	l.f.Close()
	l.f = nil
	return err
}

// Holder reports whether another process holds dir's lock and, when it
// does, the pid written in dir/ace.lock (0 while the holder has not written
// it yet, or when the file is unreadable). It takes the lock only for the
// instant of the test, writes nothing and releases it at once, so a free
// directory stays free for the next Start. A directory without a lock file
// was never owned: not held, pid 0.
func Holder(dir string) (held bool, pid int, err error) {
	path := filepath.Join(dir, "ace.lock")
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, os.ErrNotExist) {
		return false, 0, nil
	}
	if err != nil {
		return false, 0, fmt.Errorf("lock %s: %w", path, err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			return false, 0, fmt.Errorf("lock %s: %w", path, err)
		}
		data, _ := os.ReadFile(path)
		pid, _ = strconv.Atoi(strings.TrimSpace(string(data)))
		return true, pid, nil
	}
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	return false, 0, nil
}
