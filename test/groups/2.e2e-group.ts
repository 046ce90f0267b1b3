import { runSpecGroup } from '../support/spec-groups';

runSpecGroup(2, 10);
