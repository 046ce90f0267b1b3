import { runSpecGroup } from '../support/spec-groups';

runSpecGroup(3, 10);
