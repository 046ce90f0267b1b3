import { runSpecGroup } from '../support/spec-groups';

runSpecGroup(1, 10);
