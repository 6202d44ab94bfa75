export { ExpressionEditor, type ExpressionEditorProps } from './expression-editor';
export { previewOf, type Preview, type SampleScope } from './_lib/preview';
export { completePath, type CompletionResult, type PathCompletion } from './_lib/completions';
export { FieldList } from './field-list';
