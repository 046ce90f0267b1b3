import { runSpecGroup } from '../support/spec-groups';

runSpecGroup(10, 10);
