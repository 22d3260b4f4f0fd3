// Imported first by main.ts: libuv's thread pool (SQLite statements, file writes of git objects) gets 8 threads unless
// UV_THREADPOOL_SIZE says otherwise. The pool is created on first use, so this must run before anything queues work.
// With the default 4, the writer's statements queue behind the three readers' and the git file writes under load, and
// every write transaction holds the writer that much longer.
process.env.UV_THREADPOOL_SIZE ??= '8';
export {};
