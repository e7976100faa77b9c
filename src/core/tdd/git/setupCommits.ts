/** The subject of the empty first commit the session makes in a repository that has none. */
export const INITIAL_COMMIT_SUBJECT = 'chore: initial empty commit (tdd-agent)';

/** The subject of the commit of a kata's scaffold (a folder with no manifest for the kata's language). */
export function scaffoldCommitSubject(language: string, title: string): string {
  return `chore: scaffold a ${language} project for ${title}`;
}

/** True for the subject of one of the commits above: the session's own set-up, made before any role worked. */
export function isSetupCommitSubject(subject: string): boolean {
  return subject === INITIAL_COMMIT_SUBJECT || /^chore: scaffold a \w+ project for /.test(subject);
}
