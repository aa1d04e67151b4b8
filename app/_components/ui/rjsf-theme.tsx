"use client";
/**
 * The app's look for forms generated from a JSON Schema (@rjsf/core): every field is one of the
 * app's primitives (input, textarea, native select, checkbox, radio, file picker) with a visible
 * label, a required mark, its description and its errors inline, tied to the control by
 * `aria-describedby`. Pass `{...rjsfTheme}` to any `<Form>`.
 */
import type {
  BaseInputTemplateProps,
  FieldErrorProps,
  FieldTemplateProps,
  RegistryWidgetsType,
  TemplatesType,
  WidgetProps,
} from "@rjsf/utils";
import {
  ariaDescribedByIds,
  descriptionId,
  enumOptionSelectedValue,
  enumOptionsIsSelected,
  enumOptionValueDecoder,
  enumOptionValueEncoder,
  errorId,
  examplesId,
  getInputProps,
  getOptionValueFormat,
  getUiOptions,
} from "@rjsf/utils";
import type { ChangeEvent } from "react";
import { Checkbox, ChoiceLabel, Radio } from "./primitives/checkbox";
import { FileInput } from "./primitives/file-input";
import { Input } from "./primitives/input";
import { FieldError, Label } from "./primitives/label";
import { NativeSelect } from "./primitives/select";
import { Textarea } from "./primitives/textarea";

/** The "*" after a required field's label; screen readers hear "required" from the control itself. */
function RequiredMark() {
  return (
    <span className="ml-0.5 text-destructive" aria-hidden data-testid="required-mark">
      *
    </span>
  );
}

/** One field: label (with the required mark), description, the control, then its errors. */
function FieldTemplate(props: FieldTemplateProps) {
  const { id, label, children, errors, help, rawDescription, hidden, required, displayLabel, uiSchema, classNames } = props;
  if (hidden) return <div className="hidden">{children}</div>;
  const ownLabel = getUiOptions(uiSchema).widget === "checkbox" || props.schema.type === "boolean";
  return (
    <div className={`space-y-1 ${classNames ?? ""}`} data-testid="form-field">
      {displayLabel && !ownLabel && label && (
        <Label htmlFor={id} className="text-sm text-foreground">
          {label}
          {required && <RequiredMark />}
        </Label>
      )}
      {displayLabel && rawDescription && !ownLabel && (
        <p id={descriptionId(id)} className="text-xs text-muted-foreground">
          {rawDescription}
        </p>
      )}
      {children}
      {errors}
      {help}
    </div>
  );
}

/** A field's errors under it, in the app's error style; the control points at them. */
function FieldErrorTemplate({ errors = [], fieldPathId }: FieldErrorProps) {
  const shown = errors.filter(Boolean);
  if (shown.length === 0) return null;
  return (
    <FieldError id={errorId(fieldPathId)} data-testid="field-error">
      {shown.map((e, i) => (
        // Errors have no identity of their own; their order is stable within one validation.
        <span key={i} className="block">
          {e}
        </span>
      ))}
    </FieldError>
  );
}

/** Text, number, email, URL, date and file inputs. */
function BaseInputTemplate(props: BaseInputTemplateProps) {
  const {
    id,
    htmlName,
    value,
    readonly,
    disabled,
    autofocus,
    onBlur,
    onFocus,
    onChange,
    onChangeOverride,
    options,
    schema,
    rawErrors,
    type,
    required,
    placeholder,
  } = props;
  const inputProps = getInputProps(schema, type, options);
  const invalid = (rawErrors?.length ?? 0) > 0 || undefined;
  const shared = {
    id,
    name: htmlName || id,
    disabled: disabled || readonly,
    autoFocus: autofocus,
    required,
    "aria-invalid": invalid,
    "aria-describedby": ariaDescribedByIds(id, Boolean(schema.examples)),
    onBlur: (e: { target: { value: string } }) => onBlur(id, e.target.value),
    onFocus: (e: { target: { value: string } }) => onFocus(id, e.target.value),
  };
  if (inputProps.type === "file") {
    return <FileInput {...shared} accept={inputProps.accept} multiple={props.multiple} onChange={onChangeOverride} />;
  }
  const shownValue = inputProps.type === "number" || inputProps.type === "integer" ? (value || value === 0 ? value : "") : (value ?? "");
  return (
    <>
      <Input
        {...shared}
        {...inputProps}
        readOnly={readonly}
        placeholder={placeholder}
        value={shownValue}
        list={schema.examples ? examplesId(id) : undefined}
        onChange={
          onChangeOverride ?? ((e: ChangeEvent<HTMLInputElement>) => onChange(e.target.value === "" ? options.emptyValue : e.target.value))
        }
      />
      {Array.isArray(schema.examples) && (
        <datalist id={examplesId(id)}>
          {(schema.examples as unknown[]).map((example) => (
            <option key={String(example)} value={String(example)} />
          ))}
        </datalist>
      )}
    </>
  );
}

/** A boolean: the checkbox with its label beside it and the description under it. */
function CheckboxWidget({
  id,
  htmlName,
  value,
  disabled,
  readonly,
  autofocus,
  label,
  hideLabel,
  required,
  rawErrors,
  schema,
  options,
  onChange,
  onBlur,
  onFocus,
}: WidgetProps) {
  const description = options.description ?? schema.description;
  return (
    <div className="space-y-1">
      <ChoiceLabel>
        <Checkbox
          id={id}
          name={htmlName || id}
          checked={value === true}
          disabled={disabled || readonly}
          autoFocus={autofocus}
          aria-invalid={(rawErrors?.length ?? 0) > 0 || undefined}
          aria-describedby={ariaDescribedByIds(id)}
          onChange={(e) => onChange(e.target.checked)}
          onBlur={(e) => onBlur(id, e.target.checked)}
          onFocus={(e) => onFocus(id, e.target.checked)}
        />
        {!hideLabel && (
          <span>
            {label}
            {required && <RequiredMark />}
          </span>
        )}
      </ChoiceLabel>
      {description && (
        <p id={descriptionId(id)} className="text-xs text-muted-foreground">
          {String(description)}
        </p>
      )}
    </div>
  );
}

/** An enum as radio buttons (uiSchema `"ui:widget": "radio"`), one per option. */
function RadioWidget({ id, htmlName, value, disabled, readonly, required, options, onChange, onBlur, onFocus, label }: WidgetProps) {
  const { enumOptions = [], enumDisabled, emptyValue } = options;
  const format = getOptionValueFormat(options);
  const decode = (raw: string) => enumOptionValueDecoder(raw, enumOptions, format, emptyValue);
  return (
    <div id={id} role="radiogroup" aria-label={label} aria-required={required} className="flex flex-wrap gap-x-4 gap-y-1">
      {enumOptions.map((option, i) => (
        <ChoiceLabel key={String(option.value)}>
          <Radio
            id={`${id}-${i}`}
            name={htmlName || id}
            value={enumOptionValueEncoder(option.value, i, format)}
            checked={enumOptionsIsSelected(option.value, value)}
            disabled={disabled || readonly || (Array.isArray(enumDisabled) && enumDisabled.includes(option.value))}
            aria-describedby={ariaDescribedByIds(id)}
            onChange={() => onChange(option.value)}
            onBlur={(e) => onBlur(id, decode(e.target.value))}
            onFocus={(e) => onFocus(id, decode(e.target.value))}
          />
          {option.label}
        </ChoiceLabel>
      ))}
    </div>
  );
}

/** An enum (or an array of enum items, as a multi-select) in the app's native select. */
function SelectWidget({
  id,
  htmlName,
  value,
  disabled,
  readonly,
  required,
  multiple = false,
  options,
  schema,
  placeholder,
  rawErrors,
  onChange,
  onBlur,
  onFocus,
}: WidgetProps) {
  const { enumOptions = [], enumDisabled, emptyValue } = options;
  const format = getOptionValueFormat(options);
  const read = (select: HTMLSelectElement) =>
    enumOptionValueDecoder(multiple ? Array.from(select.selectedOptions, (o) => o.value) : select.value, enumOptions, format, emptyValue);
  return (
    <NativeSelect
      id={id}
      name={htmlName || id}
      multiple={multiple}
      className={multiple ? "h-auto" : undefined}
      value={enumOptionSelectedValue(value, enumOptions, multiple, format, multiple ? [] : "")}
      required={required}
      disabled={disabled || readonly}
      aria-invalid={(rawErrors?.length ?? 0) > 0 || undefined}
      aria-describedby={ariaDescribedByIds(id)}
      onChange={(e) => onChange(read(e.target))}
      onBlur={(e) => onBlur(id, read(e.target))}
      onFocus={(e) => onFocus(id, read(e.target))}
    >
      {!multiple && schema.default === undefined && <option value="">{placeholder || "Choose…"}</option>}
      {enumOptions.map((option, i) => (
        <option
          key={String(option.value)}
          value={enumOptionValueEncoder(option.value, i, format)}
          disabled={Array.isArray(enumDisabled) && enumDisabled.includes(option.value)}
        >
          {option.label}
        </option>
      ))}
    </NativeSelect>
  );
}

/** Long text (uiSchema `"ui:widget": "textarea"`). */
function TextareaWidget({
  id,
  htmlName,
  value,
  disabled,
  readonly,
  required,
  placeholder,
  rawErrors,
  options,
  onChange,
  onBlur,
  onFocus,
}: WidgetProps) {
  return (
    <Textarea
      id={id}
      name={htmlName || id}
      value={value ?? ""}
      rows={typeof options.rows === "number" ? options.rows : 4}
      disabled={disabled}
      readOnly={readonly}
      required={required}
      placeholder={placeholder}
      aria-invalid={(rawErrors?.length ?? 0) > 0 || undefined}
      aria-describedby={ariaDescribedByIds(id)}
      onChange={(e) => onChange(e.target.value === "" ? options.emptyValue : e.target.value)}
      onBlur={(e) => onBlur(id, e.target.value)}
      onFocus={(e) => onFocus(id, e.target.value)}
    />
  );
}

/** Widgets and templates to spread into an rjsf `<Form>` (`<Form {...rjsfTheme} …>`). */
export const rjsfTheme: { widgets: RegistryWidgetsType; templates: Partial<TemplatesType> } = {
  widgets: { CheckboxWidget, RadioWidget, SelectWidget, TextareaWidget },
  templates: { FieldTemplate, FieldErrorTemplate, BaseInputTemplate },
};
