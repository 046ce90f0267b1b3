import { runSpecGroup } from '../support/spec-groups';

runSpecGroup(4, 10);
