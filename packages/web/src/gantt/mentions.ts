/** Someone a comment can mention: a project member, by the name the project lists. */
export interface Mentionable {
  userId: string;
  name: string;
}

/** An `@` of a comment's text and whom it names. */
export interface Mention<M extends Mentionable> {
  /** As written, with the `@`: `@Bob`. */
  text: string;
  /** One member when the mention names someone; none, or the candidates when it is ambiguous. */
  members: M[];
}

/** Words of names as mentions write them, separated by single spaces: `Bob Builder`. */
const words = /^[\p{L}\p{N}_'-]+(?: [\p{L}\p{N}_'-]+)*/u;
const wordsOnly = /^(?:[\p{L}\p{N}_'-]+(?: [\p{L}\p{N}_'-]+)*)?$/u;
/** An `@` that starts a mention: not inside a word (`ada@example.com` is an address). */
const mentionSign = /(?<![\p{L}\p{N}_.'-])@/gu;

/** The words right after an `@`, at most `count`: `Bob Builder` of `@Bob Builder, look`. */
function wordsAfter(text: string, count: number): string[] {
  const run = words.exec(text)?.[0];
  return run ? run.split(' ').slice(0, count) : [];
}

/**
 * Whom `phrase` names: a member whose whole name it is, else one whose name begins with it
 * as whole words (`Bob` → Bob Builder, rather than Bobby Tables), else one whose name
 * begins with it at all; case aside. Several at the first level that has any: ambiguous.
 */
function candidatesFor<M extends Mentionable>(phrase: string, members: readonly M[]): M[] {
  const asked = phrase.toLocaleLowerCase();
  const named = (test: (name: string) => boolean) => members.filter((member) => test(member.name.toLocaleLowerCase()));
  const levels = [named((name) => name === asked), named((name) => name.startsWith(`${asked} `)), named((name) => name.startsWith(asked))];
  return levels.find((level) => level.length > 0) ?? [];
}

/**
 * The mentions of a comment's text. `@` and the longest run of words some member's name
 * begins with, so `@Bob` names Bob Builder, and `@Bob B` tells Bob Builder from Bob Brown.
 */
export function mentionsIn<M extends Mentionable>(text: string, members: readonly M[]): Mention<M>[] {
  const mostWords = Math.max(1, ...members.map((member) => member.name.split(' ').length));
  const mentions: Mention<M>[] = [];
  for (const sign of text.matchAll(mentionSign)) {
    const written = wordsAfter(text.slice(sign.index + 1), mostWords);
    if (written.length === 0) continue;
    const phrases = written.map((_, index) => written.slice(0, index + 1).join(' ')).reverse();
    const phrase = phrases.find((each) => candidatesFor(each, members).length > 0) ?? (written[0] as string);
    mentions.push({ text: `@${phrase}`, members: candidatesFor(phrase, members) });
  }
  return mentions;
}

/** What to warn of a mention that notifies nobody: it names no member, or several. */
export function mentionProblem<M extends Mentionable>(mention: Mention<M>): string | null {
  if (mention.members.length === 1) return null;
  if (mention.members.length === 0) return `${mention.text} matches no member`;
  return `${mention.text} matches ${mention.members.map((member) => member.name).join(', ')}: write more of the name`;
}

/** The `@` being typed just before the caret, and the words after it so far: the query of the member list. */
export function mentionBeingTyped(text: string, caret: number): { start: number; query: string } | null {
  const before = text.slice(0, caret);
  const start = [...before.matchAll(mentionSign)].at(-1)?.index;
  if (start === undefined) return null;
  const query = before.slice(start + 1);
  return wordsOnly.test(query) ? { start, query } : null;
}

/** The members a typed query may mean: whose name, or a word of it, begins with it (case aside); at most `most`. */
export function membersMatching<M extends Mentionable>(query: string, members: readonly M[], most = 8): M[] {
  const asked = query.toLocaleLowerCase();
  return members.filter((member) => member.name.toLocaleLowerCase().split(' ').some((_, index, words) => words.slice(index).join(' ').startsWith(asked))).slice(0, most);
}
