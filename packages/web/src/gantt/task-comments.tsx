import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { call, describeError } from '../client';
import { Alert } from '../components';
import { formatDateTime } from '../format';
import type { Comment, Member } from '../types';
import { membersMatching, mentionBeingTyped, mentionProblem, mentionsIn } from './mentions';

/**
 * A task's comments and the box to add one. `@` and a member's name, first name or any
 * unambiguous beginning of it mentions them (they are e-mailed); typing `@` lists the
 * members (↑/↓, Enter or Tab to pick, Esc to close). A mention that names nobody, or several,
 * is warned of before posting, and said again once posted.
 */
export function TaskComments({ projectId, taskId, members }: { projectId: string; taskId: string; members: readonly Member[] }) {
  const [comments, setComments] = useState<Comment[]>([]);
  const [text, setText] = useState('');
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  /** Where the `@` whose list Esc closed stands: that list stays closed. */
  const [dismissed, setDismissed] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [posted, setPosted] = useState<string | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    call('listComments', { params: { projectId, taskId } }).then(
      (answer) => setComments(answer.comments),
      (caught: unknown) => setError(describeError(caught)),
    );
  }, [projectId, taskId]);

  const mentions = mentionsIn(text, members);
  const problems = [...new Set(mentions.map(mentionProblem).filter((problem) => problem !== null))];
  const typing = mentionBeingTyped(text, caret);
  const choices = typing && typing.start !== dismissed ? membersMatching(typing.query, members) : [];
  const activeChoice = choices[Math.min(active, choices.length - 1)];

  const edit = (value: string, at: number) => {
    setText(value);
    setCaret(at);
    setActive(0);
  };
  const pick = (member: Member) => {
    if (!typing) return;
    const inserted = `@${member.name} `;
    const at = typing.start + inserted.length;
    edit(text.slice(0, typing.start) + inserted + text.slice(caret), at);
    requestAnimationFrame(() => box.current?.setSelectionRange(at, at));
  };
  const handleKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (!typing || !activeChoice) return;
    const moves: Record<string, () => void> = {
      ArrowDown: () => setActive((choices.indexOf(activeChoice) + 1) % choices.length),
      ArrowUp: () => setActive((choices.indexOf(activeChoice) + choices.length - 1) % choices.length),
      Enter: () => pick(activeChoice),
      Tab: () => pick(activeChoice),
      Escape: () => setDismissed(typing.start),
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    move();
  };

  const post = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    const notified = [...new Map(mentions.filter((mention) => mention.members.length === 1).map(({ members: [member] }) => [member!.userId, member!])).values()];
    try {
      const { comment: added } = await call('createComment', { params: { projectId, taskId }, body: { body: text, mentions: notified.map((member) => member.userId) } });
      setComments([...comments, added]);
      setPosted(
        [
          `Comment posted. ${notified.length > 0 ? `E-mailed: ${notified.map((member) => member.name).join(', ')}.` : 'Nobody was notified.'}`,
          ...problems.map((problem) => `Not notified: ${problem}.`),
        ].join(' '),
      );
      edit('', 0);
      setDismissed(null);
    } catch (caught) {
      setError(describeError(caught));
    }
  };

  return (
    <section aria-label="Comments">
      <h3>Comments</h3>
      {error && <Alert>{error}</Alert>}
      <ul className="comments">
        {comments.map((item) => (
          <li key={item.id}>
            <strong>{item.authorName}</strong> <span className="muted">{formatDateTime(item.createdAt)}</span>
            <p>{item.body}</p>
          </li>
        ))}
      </ul>
      {posted && <Alert kind="info">{posted}</Alert>}
      <form onSubmit={post}>
        <div className="field mention-field">
          <label htmlFor="task-comment">Add a comment (mention with @ and a name)</label>
          <textarea
            id="task-comment"
            ref={box}
            rows={2}
            value={text}
            required
            aria-autocomplete="list"
            aria-controls="mention-choices"
            aria-activedescendant={activeChoice ? `mention-${activeChoice.userId}` : undefined}
            onChange={(event) => edit(event.target.value, event.target.selectionStart)}
            onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
            onKeyDown={handleKeyDown}
          />
          <ul id="mention-choices" role="listbox" aria-label="Members to mention" className="mention-choices" hidden={choices.length === 0}>
            {choices.map((member) => (
              <li
                key={member.userId}
                id={`mention-${member.userId}`}
                role="option"
                aria-selected={member === activeChoice}
                onMouseDown={(event) => {
                  // Keeps the focus (and the caret) in the comment box.
                  event.preventDefault();
                  pick(member);
                }}
              >
                {member.name} <span className="muted">{member.email}</span>
              </li>
            ))}
          </ul>
          {problems.length > 0 && (
            <ul className="field-error" aria-live="polite">
              {problems.map((problem) => (
                <li key={problem}>{problem}: nobody is notified.</li>
              ))}
            </ul>
          )}
        </div>
        <button type="submit">Comment</button>
      </form>
    </section>
  );
}
