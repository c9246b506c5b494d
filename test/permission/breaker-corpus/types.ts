/** What the bash tool and the policy make of a command: refused before any rule, or the policy's action. */
export type BreakerDecision = 'allow' | 'ask' | 'deny' | 'banned';

/** [command, (a) no rules, (b) deny rules, (c) allow-all] */
export type BreakerRow = [string, BreakerDecision, BreakerDecision, BreakerDecision];
