import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiPropertyOptions } from '@nestjs/swagger';
import { IsOptional, IsString, Matches, MaxLength } from 'class-validator';

export interface PatternTextFieldOptions {
  required: boolean;
  /** What the OpenAPI document says of the field. */
  doc: ApiPropertyOptions;
  maxLength: number;
  pattern: RegExp;
  /** The 400 message when the text does not match; `$property` is the field's name. */
  message: string;
}

/**
 * A request field holding text of one shape (a decimal, a date, a rate, a non-blank name):
 * documented as `doc` says, optional unless required, a string of at most `maxLength`
 * characters matching `pattern`.
 */
export function PatternTextField(options: PatternTextFieldOptions): PropertyDecorator {
  return applyDecorators(
    options.required ? ApiProperty(options.doc) : ApiPropertyOptional(options.doc),
    ...(options.required ? [] : [IsOptional()]),
    IsString(),
    MaxLength(options.maxLength),
    Matches(options.pattern, { message: options.message }),
  );
}
