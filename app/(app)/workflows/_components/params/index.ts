export { NodeParamsForm, type NodeParamsFormProps, type ParamsNodeType } from './node-params-form';
export { NodeSettingsForm, settingBounds, type NodeSettings, type NodeSettingsFormProps, type OnError } from './node-settings-form';
export type { ParamsFormContext, PickerItem } from './form-context';
export { graphIssueTarget, issuesForNode, parsePath, pathKey, type FieldIssue, type IssueTarget, type Segment } from './_lib/paths';
export { getAt, setAt } from './_lib/values';
