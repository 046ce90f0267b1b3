import { runSpecGroup } from '../support/spec-groups';

runSpecGroup(9, 10);
