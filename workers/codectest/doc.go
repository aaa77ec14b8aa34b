// Package codectest holds the end-to-end test of the Temporal payload
// codec (workers/codec.go): an edit runs on an embedded stack of its own
// with ACE_PAYLOAD_KEY_FILE set, and the test reads the embedded server's
// SQLite file directly. It has its own stack because the workers package's
// shared one records plain histories for the replay tests in workflows/.
package codectest
