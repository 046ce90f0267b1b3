import { runSpecGroup } from '../support/spec-groups';

runSpecGroup(8, 10);
