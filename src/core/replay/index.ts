export {
  CASSETTE_MAX_BYTES,
  fingerprint,
  parseCassette,
  readCassette,
  writeCassette,
  CassetteSchema,
  type Cassette,
  type RequestFingerprint,
} from './cassette';
export { ReplayLlmClient } from './replayClient';
export { RecordingLlmClient } from './recordingClient';
