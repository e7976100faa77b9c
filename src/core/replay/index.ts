export { fingerprint, readCassette, writeCassette, CassetteSchema, type Cassette, type RequestFingerprint } from './cassette';
export { ReplayLlmClient } from './replayClient';
export { RecordingLlmClient } from './recordingClient';
