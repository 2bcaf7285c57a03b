import { describe, expect, it } from 'vitest';
import { membersMatching, mentionBeingTyped, mentionProblem, mentionsIn } from '../src/gantt/mentions';

const bob = { userId: 'b', name: 'Bob Builder' };
const bobby = { userId: 'bt', name: 'Bobby Tables' };
const brown = { userId: 'bb', name: 'Bob Brown' };
const ann = { userId: 'a', name: 'Ann' };
const anna = { userId: 'aa', name: 'Anna Karenina' };
const named = (text: string, members: { userId: string; name: string }[]) => mentionsIn(text, members).map((mention) => [mention.text, mention.members.map((member) => member.userId)]);

describe('mentions in a comment', () => {
  it('name a member by the full name, the first name or any unambiguous beginning of the name, case aside', () => {
    expect(named('@Bob Builder please look', [bob, bobby])).toEqual([['@Bob Builder', ['b']]]);
    expect(named('@bob, can you look?', [bob, bobby])).toEqual([['@bob', ['b']]]);
    expect(named('thanks @Bobby and @TAB', [bob, bobby])).toEqual([['@Bobby', ['bt']], ['@TAB', []]]);
    expect(named('@Bobby T.', [bob, bobby])).toEqual([['@Bobby T', ['bt']]]);
    expect(named('@Ann and @Anna', [ann, anna])).toEqual([['@Ann', ['a']], ['@Anna', ['aa']]]);
  });

  it('tell the ambiguous and the unknown apart, and ignore e-mail addresses and a bare @', () => {
    expect(named('@Bob look', [bob, brown])).toEqual([['@Bob', ['b', 'bb']]]);
    expect(named('@Bob Br look', [bob, brown])).toEqual([['@Bob Br', ['bb']]]);
    expect(named('@Zed, mail ada@example.com @ noon', [bob])).toEqual([['@Zed', []]]);
    const [ambiguous, unknown] = mentionsIn('@Bob @Zed', [bob, brown]);
    expect(mentionProblem(ambiguous!)).toBe('@Bob matches Bob Builder, Bob Brown: write more of the name');
    expect(mentionProblem(unknown!)).toBe('@Zed matches no member');
    expect(mentionProblem(mentionsIn('@Bob B', [bob])[0]!)).toBeNull();
  });

  it('find the mention being typed before the caret, and the members it may mean', () => {
    expect(mentionBeingTyped('hi @Bo', 6)).toEqual({ start: 3, query: 'Bo' });
    expect(mentionBeingTyped('hi @', 4)).toEqual({ start: 3, query: '' });
    expect(mentionBeingTyped('hi @Bob B', 9)).toEqual({ start: 3, query: 'Bob B' });
    expect(mentionBeingTyped('hi @Bob, ', 9)).toBeNull();
    expect(mentionBeingTyped('ada@exa', 7)).toBeNull();
    expect(membersMatching('bo', [ann, bob, bobby]).map((member) => member.userId)).toEqual(['b', 'bt']);
    expect(membersMatching('build', [ann, bob, bobby]).map((member) => member.userId)).toEqual(['b']);
    expect(membersMatching('', [ann, bob]).map((member) => member.userId)).toEqual(['a', 'b']);
  });
});
