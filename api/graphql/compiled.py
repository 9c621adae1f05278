"""Known documents, run by a plan instead of graphql-core's executor (issue 18).

Clients send the same few documents over and over (a table's `sendCommand`, a roll).
Strawberry runs each through its view, its extensions, graphql-core's executor and value
completion, which on a session command cost as much CPU as the command itself. Once a
document has run through that path (so it parsed and validated there, under every rule),
`Documents` compiles it into a `Plan`: its root fields' resolvers and, for each selection
set, a function that builds the answer from the resolvers' values in the order and shape
graphql-core gives. The next request for the same text runs the plan, with the checks the
path around execution makes: the publishable key's scope, the variables' types, the
document's price.

Arguments: the variables are coerced by graphql-core's own functions, their signatures
read once per plan (graphql-core's `get_variable_values` whole when one has a default);
each root field's arguments by graphql-core's `get_argument_values`; and the plan renames
them to the plain values (Python names, enum values, dicts) the row's
resolver validates: what strawberry's conversion to input types gives once the
resolver makes it plain again (`generate.plain`), without the round trip.

The plan serves only what it can serve exactly: a document with directives, fragment
variables, arguments below the root or a field with a resolver other than attribute
access (or one taking only its parent) is never compiled. At run time anything unusual
(variables that do not coerce, a refused scope or price, an error in a resolver, a null
where the type says non-null, a value of no known type) sends the request down
strawberry's path, untouched: before the resolvers ran, as it came; after, with their
results (`RESOLVED` in the context), so no command runs twice and the answer, errors
and codes included, is strawberry's own.

A table row's result is the data its redaction made (`Redacted`), which strawberry's path
types into the row's result model, every field of it, before completing the few the
document selects. A plan completes the data itself (`_Compiler.data_root`), reading the
selected fields only, with what typing would have done made explicit.

`VERIFY` (`DAEDALUS_VERIFY_PLANS=1`, on in the test suite) checks each plan: its
variables against `get_variable_values`, its plain arguments against strawberry's
conversion, and its answer against strawberry's path run with the resolvers' results;
a difference fails the request.
"""

from __future__ import annotations

import inspect
import os
import types
import typing
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from graphql import (
    DocumentNode,
    FieldNode,
    FragmentDefinitionNode,
    FragmentSpreadNode,
    GraphQLArgument,
    GraphQLBoolean,
    GraphQLEnumType,
    GraphQLError,
    GraphQLField,
    GraphQLID,
    GraphQLInputField,
    GraphQLInputObjectType,
    GraphQLInt,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLOutputType,
    GraphQLResolveInfo,
    GraphQLScalarType,
    GraphQLSchema,
    GraphQLString,
    InlineFragmentNode,
    NamedTypeNode,
    Node,
    OperationDefinitionNode,
    SelectionSetNode,
    Undefined,
    VariableNode,
    default_type_resolver,
    is_abstract_type,
    is_non_null_type,
    is_required_argument,
    is_required_input_field,
)
from graphql.execution.get_variable_signature import get_variable_signature
from graphql.execution.values import (
    VariableValues,
    VariableValueSource,
    get_argument_values,
    get_variable_values,
)
from graphql.language import visit
from graphql.language.visitor import BREAK, Visitor
from graphql.pyutils import Path, is_iterable
from graphql.utilities.coerce_input_value import coerce_default_value
from pydantic import BaseModel, Discriminator, Tag, TypeAdapter
from strawberry.schema.schema_converter import GraphQLCoreConverter
from strawberry.types.arguments import StrawberryArgument, convert_arguments
from strawberry.types.unset import UNSET

from api.graphql.generate import model_of, plain
from api.usecases.table import Redacted

DEFINITION_BACKREF = GraphQLCoreConverter.DEFINITION_BACKREF

# The context key of the root fields' results, by response key, when a plan hands its
# request to strawberry: each root resolver returns (or raises) its result from there.
RESOLVED = "daedalus.resolved"
# The test suite's check of every plan's answer against strawberry's (module doc); set
# by tests/conftest.py for the suite and the servers it starts, never in production.
VERIFY = os.environ.get("DAEDALUS_VERIFY_PLANS") == "1"

Complete = Callable[[Any], Any]
Resolver = Callable[..., Awaitable[Any]]


class Unsupported(Exception):
    """A document or a value a plan does not serve: strawberry's path does."""


@dataclass(frozen=True, slots=True)
class RootField:
    """A root field: its response key, definition and node, its strawberry arguments,
    how graphql-core's coerced arguments become the plain ones the row's resolver reads,
    the resolver, and the completion of its value."""

    key: str
    definition: GraphQLField
    node: FieldNode
    arguments: list[StrawberryArgument]
    values: Callable[[VariableValues], dict[str, Any]]  # graphql-core's coerced arguments
    plain: Callable[[dict[str, Any]], dict[str, Any]]
    resolve: Resolver
    complete: Complete
    shown: frozenset[str]  # the result's fields selected (Python names), `Call.shown`
    # The completion of a Redacted result's data, without typing it (None: typed first).
    data: Complete | None = None


@dataclass(frozen=True, slots=True)
class Plan:
    """A compiled operation: its root fields in order, their names (a publishable key's
    scope), and how its variables are coerced."""

    operation: OperationDefinitionNode
    fields: tuple[RootField, ...]
    names: tuple[str, ...]
    variables: Callable[[dict[str, Any]], VariableValues | None]


class Documents:
    """The plans of documents strawberry has run, by (query text, operation name): at
    most `maxsize`, the oldest forgotten first. A document no plan serves is remembered as
    such (None), so it is compiled once."""

    def __init__(self, schema: Any, maxsize: int) -> None:
        self.schema = schema  # the strawberry schema
        self.maxsize = maxsize
        self._plans: dict[tuple[str, str | None], Plan | None] = {}

    def plan(self, query: str, operation_name: str | None) -> Plan | None:
        """The plan of a document strawberry has run, or None."""
        return self._plans.get((query, operation_name))

    def learn(self, query: str, operation_name: str | None, document: DocumentNode) -> None:
        """Compile a document strawberry has parsed, validated and started to execute
        (`operation_name`: the operation it ran, which a request may also leave unnamed
        when the document has no other)."""
        keys = [(query, operation_name)]
        operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
        if len(operations) == 1 and operation_name is not None:
            keys.append((query, None))
        if all(key in self._plans for key in keys):
            return
        try:
            plan: Plan | None = _compile(self.schema, document, operation_name)
        except Unsupported:
            plan = None
        for key in keys:
            while len(self._plans) >= self.maxsize:
                del self._plans[next(iter(self._plans))]
            self._plans[key] = plan


class _Info:
    """What the rows' resolvers read of strawberry's Info: the context; and the result's
    fields the document selects (`Call.shown`: a service may leave the others out)."""

    __slots__ = ("context", "shown")

    def __init__(self, context: dict[str, Any], shown: frozenset[str]) -> None:
        self.context = context
        self.shown = shown


async def resolve_all(
    plan: Plan, schema: Any, variables: dict[str, Any], context: dict[str, Any]
) -> dict[str, Any] | None:
    """The root fields' results (a value or the exception raised) by response key, or
    None when the variables do not coerce (strawberry answers that)."""
    coerced = plan.variables(variables)
    if VERIFY:
        _check_variables(schema, plan, variables, coerced)
    if coerced is None:
        return None
    results: dict[str, Any] = {}
    for field in plan.fields:
        info = _Info(context, field.shown)
        try:
            values = field.values(coerced)
            kwargs = field.plain(values)
            if VERIFY:
                _check_arguments(schema, field, values, kwargs, coerced)
            results[field.key] = await field.resolve(info, **kwargs)
        except Exception as exc:
            results[field.key] = exc
    return results


def _check_variables(
    schema: Any, plan: Plan, variables: dict[str, Any], coerced: VariableValues | None
) -> None:
    """VERIFY: the variables coerce, or not, as graphql-core's own coercion has them."""
    expected = get_variable_values(
        schema._schema, plan.operation.variable_definitions or (), variables
    )
    same = (
        isinstance(expected, list)
        if coerced is None
        else not isinstance(expected, list) and expected.coerced == coerced.coerced
    )
    if not same:
        raise AssertionError(f"a plan's variables {coerced!r}, graphql-core's {expected!r}")


def _variables(
    schema: GraphQLSchema, operation: OperationDefinitionNode
) -> Callable[[dict[str, Any]], VariableValues | None]:
    """The operation's variables coerced as graphql-core's `get_variable_values` does, its
    signatures read once; None for any error (strawberry's path reports it). With a
    default value among them, graphql-core's own coercion."""
    definitions = operation.variable_definitions or ()
    if any(d.default_value is not None for d in definitions):
        return lambda given: _or_none(get_variable_values(schema, definitions, given))
    signatures = []
    for definition in definitions:
        signature = get_variable_signature(schema, definition)
        if isinstance(signature, GraphQLError):
            raise Unsupported("a variable of no input type")
        signatures.append(signature)

    def coerce(given: dict[str, Any]) -> VariableValues | None:
        sources: dict[str, VariableValueSource] = {}
        coerced: dict[str, Any] = {}
        for signature in signatures:
            name = signature.name
            value = given.get(name, Undefined)
            if value is Undefined:
                if is_non_null_type(signature.type):
                    return None  # required, not given
                sources[name] = VariableValueSource(signature)
                continue
            sources[name] = VariableValueSource(signature, value)
            # graphql-core's `input_is_nested_too_deeply` is left out: a plan's variables
            # come from a body `decode_json` read, which nests at most MAX_JSON_DEPTH
            # (64, api/bodies.py) levels, and an input nests deeper than that only by the
            # schema's own list types, far under graphql-core's bound
            # (tests/unit/api/test_graphql_plans.py).
            try:
                out = coercers[name](value)
            except GraphQLError:  # an input type's own check: strawberry's `@oneOf`
                return None
            if out is Undefined:
                return None
            coerced[name] = out
        return VariableValues(sources, coerced)

    coercers = {s.name: _coercer(s.type, {}) for s in signatures}
    return coerce


def _coercer(type_: Any, made: dict[Any, Complete]) -> Complete:
    """graphql-core's `coerce_input_value` for one input type, its walk of the type done
    once: the value coerced, or Undefined (VERIFY checks it against graphql-core's)."""
    found = made.get(type_)
    if found is not None:
        return found
    if isinstance(type_, GraphQLNonNull):
        inner = _coercer(type_.of_type, made)

        def non_null(value: Any) -> Any:
            return Undefined if value is None or value is Undefined else inner(value)

        made[type_] = non_null
        return non_null
    if isinstance(type_, GraphQLList):
        item_of: list[Complete] = []  # filled below: an input may list its own type

        def listed(value: Any) -> Any:
            if value is None or value is Undefined:
                return None
            item = item_of[0]
            if not is_iterable(value):  # a non-list value is a list of one
                one = item(value)
                return Undefined if one is Undefined else [one]
            out = []
            for each in value:
                one = item(each)
                if one is Undefined:
                    return Undefined
                out.append(one)
            return out

        made[type_] = listed
        item_of.append(_coercer(type_.of_type, made))
        return listed
    if isinstance(type_, GraphQLInputObjectType):
        fields: list[tuple[str, str, bool, Any, Complete]] = []

        def input_object(value: Any) -> Any:
            if value is None or value is Undefined:
                return None
            if not isinstance(value, dict):
                return Undefined
            defined = 0
            for name, each in value.items():
                if each is Undefined:
                    continue
                defined += 1
                if name not in known:
                    return Undefined
            out: dict[str, Any] = {}
            for name, out_name, required, default, coerce in fields:
                each = value.get(name, Undefined)
                if each is Undefined:
                    if required:
                        return Undefined
                    if default is not Undefined:
                        out[out_name] = default
                    continue
                each = coerce(each)
                if each is Undefined:
                    return Undefined
                out[out_name] = each
            if one_of and (defined != 1 or len(out) != 1 or next(iter(out.values())) is None):
                return Undefined
            return out_type(out)

        made[type_] = input_object
        known = frozenset(type_.fields)
        one_of, out_type = type_.is_one_of, type_.out_type
        for name, field in type_.fields.items():
            required = is_required_input_field(field)
            default = Undefined if required else coerce_default_value(field)
            fields.append(
                (name, field.out_name or name, required, default, _coercer(field.type, made))
            )
        return input_object
    leaf = type_.coerce_input_value
    same = _AS_THEY_ARE.get(type_) if type_ in (GraphQLString, GraphQLBoolean) else None

    def leaf_value(value: Any) -> Any:
        if value is None or value is Undefined:
            return None
        if type(value) is same:  # a String's str, a Boolean's bool: coerced as they are
            return value
        try:
            return leaf(value)
        except Exception:  # graphql-core's: an invalid leaf is no value
            return Undefined

    made[type_] = leaf_value
    return leaf_value


def _or_none(found: VariableValues | list[GraphQLError]) -> VariableValues | None:
    return None if isinstance(found, list) else found


def _check_arguments(
    schema: Any,
    field: RootField,
    values: dict[str, Any],
    kwargs: dict[str, Any],
    variables: VariableValues,
) -> None:
    """VERIFY: the coerced arguments are graphql-core's, and the plain ones what
    strawberry's conversion, made plain, gives."""
    expected_values = get_argument_values(field.definition, field.node, variables)
    if expected_values != values:
        raise AssertionError(f"a plan's arguments {values!r}, graphql-core's {expected_values!r}")
    converted = convert_arguments(
        values, field.arguments, schema.schema_converter.scalar_registry, schema.config
    )
    expected = {k: plain(v) for k, v in converted.items() if v is not UNSET}
    if expected != kwargs:
        raise AssertionError(f"a plan's arguments {kwargs!r}, strawberry's {expected!r}")


def complete_all(plan: Plan, results: dict[str, Any]) -> dict[str, Any]:
    """The answer's `data` from the root fields' results; Unsupported (or any error)
    when strawberry's path must build it."""
    data = {}
    for field in plan.fields:
        value = results[field.key]
        if isinstance(value, BaseException):
            raise Unsupported(field.key)
        if isinstance(value, Redacted):
            if field.data is not None:
                data[field.key] = field.data(value.data)
                continue
            value = value.typed(value.data)
        data[field.key] = field.complete(value)
    return data


def planned(info: Any) -> bool:
    """Whether a plan runs this root resolver: it answers a Redacted result as it is,
    for `complete_all` to complete its data (strawberry's path types it)."""
    return type(info) is _Info


def from_resolved(info: Any) -> tuple[bool, Any]:
    """(True, the result) when a plan already ran this root field (`RESOLVED`); its
    exception is raised again."""
    context = info.context
    resolved = context.get(RESOLVED) if isinstance(context, dict) else None
    if resolved is None:
        return False, None
    value = resolved[info.path.key]
    if isinstance(value, BaseException):
        raise value
    if isinstance(value, Redacted):
        value = value.typed(value.data)
    return True, value


# --- compiling --------------------------------------------------------------------------


class _Disallowed(Visitor):
    """Finds what a plan does not serve: directives and fragment variables."""

    found = False

    def enter(self, node: Node, *_: Any) -> Any:
        if getattr(node, "directives", None) or (
            isinstance(node, FragmentDefinitionNode) and node.variable_definitions
        ):
            self.found = True
            return BREAK
        if isinstance(node, FragmentSpreadNode) and getattr(node, "arguments", None):
            self.found = True
            return BREAK
        return None


def _compile(schema: Any, document: DocumentNode, operation_name: str | None) -> Plan:
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    if operation_name is None:
        if len(operations) != 1:
            raise Unsupported("which operation")
        operation = operations[0]
    else:
        found = [o for o in operations if o.name is not None and o.name.value == operation_name]
        if len(found) != 1:
            raise Unsupported("no such operation")
        operation = found[0]
    disallowed = _Disallowed()
    visit(document, disallowed)
    if disallowed.found:
        raise Unsupported("directives")
    core: GraphQLSchema = schema._schema
    root = core.get_root_type(operation.operation)
    if root is None or operation.operation.value not in ("query", "mutation"):
        raise Unsupported("operation type")
    fragments = {
        d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)
    }
    compiler = _Compiler(schema, core, fragments, operation)
    fields = []
    for key, nodes in _collect(core, fragments, root, [operation.selection_set]).items():
        name = nodes[0].name.value
        if name.startswith("__") or len(nodes) != 1:
            raise Unsupported("a meta or repeated root field")
        definition = root.fields[name]
        strawberry_field = schema.get_field_for_type(name, root.name)
        resolver = getattr(strawberry_field, "base_resolver", None)
        if resolver is None or strawberry_field.extensions:
            raise Unsupported("a root field without a row's resolver")
        resolve = resolver.wrapped_func
        if not inspect.iscoroutinefunction(resolve):
            raise Unsupported("a synchronous root resolver")
        complete = compiler.value(definition.type, nodes, root, name)
        arguments = list(strawberry_field.arguments)
        values = _argument_values(definition, nodes[0])
        made_plain = _plain_arguments(definition)
        shown = compiler.shown(definition.type, nodes)
        data = compiler.data_root(definition.type, nodes)
        fields.append(
            RootField(
                key,
                definition,
                nodes[0],
                arguments,
                values,
                made_plain,
                resolve,
                complete,
                shown,
                data,
            )
        )
    names = tuple(f.node.name.value for f in fields)
    return Plan(operation, tuple(fields), names, _variables(core, operation))


def _argument_values(
    definition: GraphQLField, node: FieldNode
) -> Callable[[VariableValues], dict[str, Any]]:
    """A root field's coerced arguments, as graphql-core's `get_argument_values` gives
    them. Where every argument given is a bare variable (what a client's document usually
    is), they are the variables' coerced values, read directly, with the defaults of the
    arguments left out (coerced once, by graphql-core's function, which memoizes them on
    the argument as well); a variable left out or null where a value is required goes to
    graphql-core's function, which answers it (a default, or the error)."""

    def graphql_cores(variables: VariableValues) -> dict[str, Any]:
        return get_argument_values(definition, node, variables)

    given = {argument.name.value: argument.value for argument in node.arguments or ()}
    reads: list[tuple[str, str, bool]] = []
    defaults: dict[str, Any] = {}
    for name, argument in definition.args.items():
        value = given.get(name)
        if value is None:
            if is_required_argument(argument):
                return graphql_cores  # required and left out: graphql-core's error
            try:
                default = coerce_default_value(argument)
            except (GraphQLError, TypeError):
                return graphql_cores  # an invalid default: graphql-core's error
            if default is not Undefined:
                defaults[argument.out_name or name] = default
            continue
        if not isinstance(value, VariableNode):
            return graphql_cores
        reads.append((argument.out_name or name, value.name.value, is_non_null_type(argument.type)))

    def read(variables: VariableValues) -> dict[str, Any]:
        coerced = variables.coerced
        values: dict[str, Any] = dict(defaults)
        for out_name, variable, required in reads:
            value = coerced.get(variable, Undefined)
            if value is Undefined or (value is None and required):
                return graphql_cores(variables)
            values[out_name] = value
        return values

    return read


def _python_name(definition: GraphQLArgument | GraphQLInputField) -> str:
    backref = (definition.extensions or {}).get(DEFINITION_BACKREF)
    name = getattr(backref, "python_name", None)
    if not isinstance(name, str):
        raise Unsupported("an argument or input field strawberry did not declare")
    return name


def _plain_arguments(definition: GraphQLField) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """graphql-core's coerced arguments (camelCase keys, input objects as dicts) as the
    plain values a row's resolver reads (`plain` of strawberry's converted arguments:
    Python names, enums as their values, absent fields absent)."""
    named = {
        name: (_python_name(argument), _plain_input(argument.type))
        for name, argument in definition.args.items()
    }

    return _renamed(named)


def _renamed(
    named: dict[str, tuple[str, Callable[[Any], Any] | None]],
) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """A dict of GraphQL names as one of Python names, each value converted (or not)."""

    def rename(values: dict[str, Any]) -> dict[str, Any]:
        out = {}
        for name, value in values.items():
            python, convert = named[name]
            out[python] = value if convert is None else convert(value)
        return out

    return rename


def _plain_input(type_: Any) -> Callable[[Any], Any] | None:
    """The conversion of one coerced input value (None: it is plain already)."""
    if isinstance(type_, GraphQLNonNull):
        return _plain_input(type_.of_type)
    if isinstance(type_, GraphQLList):
        item = _plain_input(type_.of_type)
        if item is None:
            return None
        return lambda value: None if value is None else [item(each) for each in value]
    if isinstance(type_, GraphQLInputObjectType):
        rename = _renamed(
            {
                name: (_python_name(field), _plain_input(field.type))
                for name, field in type_.fields.items()
            }
        )
        return lambda value: None if value is None else rename(value)
    return None  # a scalar or an enum: graphql-core gives the value strawberry's stands for


def _collect(
    schema: GraphQLSchema,
    fragments: dict[str, FragmentDefinitionNode],
    runtime: GraphQLObjectType,
    selection_sets: Iterable[SelectionSetNode],
) -> dict[str, list[FieldNode]]:
    """The fields selected on `runtime`, grouped by response key in document order,
    through the fragments whose type condition it meets (graphql-core's collect_fields,
    without directives)."""
    fields: dict[str, list[FieldNode]] = {}
    visited: set[str] = set()

    def applies(condition: NamedTypeNode | None) -> bool:
        if condition is None:
            return True
        wanted = schema.get_type(condition.name.value)
        if wanted is runtime:
            return True
        return is_abstract_type(wanted) and schema.is_sub_type(wanted, runtime)

    def walk(selection_set: SelectionSetNode) -> None:
        for selection in selection_set.selections:
            if isinstance(selection, FieldNode):
                key = selection.alias.value if selection.alias else selection.name.value
                fields.setdefault(key, []).append(selection)
            elif isinstance(selection, InlineFragmentNode):
                if applies(selection.type_condition):
                    walk(selection.selection_set)
            elif isinstance(selection, FragmentSpreadNode):
                name = selection.name.value
                if name in visited:
                    continue
                visited.add(name)
                fragment = fragments.get(name)
                if fragment is not None and applies(fragment.type_condition):
                    walk(fragment.selection_set)

    for selection_set in selection_sets:
        walk(selection_set)
    return fields


class _Compiler:
    """Builds the completion functions of one operation's selection sets."""

    def __init__(
        self,
        schema: Any,
        core: GraphQLSchema,
        fragments: dict[str, FragmentDefinitionNode],
        operation: OperationDefinitionNode,
    ) -> None:
        self.schema = schema
        self.core = core
        self.fragments = fragments
        self.operation = operation
        if schema.config.default_resolver is not getattr:
            raise Unsupported("a default resolver other than getattr")

    def value(
        self, type_: GraphQLOutputType, nodes: list[FieldNode], parent: GraphQLObjectType, name: str
    ) -> Complete:
        """Completes a field's value as graphql-core's complete_value does, for values
        it would accept; Unsupported for any other."""
        if isinstance(type_, GraphQLNonNull):
            inner = self.value(type_.of_type, nodes, parent, name)

            def non_null(value: Any) -> Any:
                if value is None:
                    raise Unsupported("null for a non-null field")
                return inner(value)

            return non_null
        if isinstance(type_, GraphQLList):
            item = self.value(type_.of_type, nodes, parent, name)

            def listed(value: Any) -> Any:
                if value is None:
                    return None
                if isinstance(value, str | bytes | Mapping) or not isinstance(value, Iterable):
                    raise Unsupported("not a list")
                return [item(each) for each in value]

            return listed
        if isinstance(type_, GraphQLScalarType | GraphQLEnumType):
            return _leaf(type_, non_null=False)
        if isinstance(type_, GraphQLObjectType):
            return self.object(type_, nodes)
        if is_abstract_type(type_):
            return self.abstract(type_, nodes, parent, name)
        raise Unsupported(f"type {type_}")

    def shown(self, type_: GraphQLOutputType, nodes: list[FieldNode]) -> frozenset[str]:
        """The Python names of the fields selected on a root field's value, on any of
        its possible types."""
        while isinstance(type_, GraphQLNonNull | GraphQLList):
            type_ = type_.of_type
        if isinstance(type_, GraphQLObjectType):
            objects = [type_]
        elif is_abstract_type(type_):
            objects = list(self.core.get_possible_types(type_))
        else:
            return frozenset()
        names = set()
        for each in objects:
            for field_nodes in self.selected(each, nodes).values():
                name = field_nodes[0].name.value
                field = (
                    None
                    if name == "__typename"
                    else self.schema.get_field_for_type(name, each.name)
                )
                if field is not None:
                    names.add(field.python_name)
        return frozenset(names)

    def abstract(
        self, type_: Any, nodes: list[FieldNode], parent: GraphQLObjectType, name: str
    ) -> Complete:
        """A union's or an interface's value: its runtime type as the schema resolves it,
        then that type's completion."""
        resolve_type = type_.resolve_type or default_type_resolver
        info = GraphQLResolveInfo(  # what type resolvers read: the field, the schema
            name,
            nodes,
            type_,
            parent,
            Path(None, name, parent.name),
            self.core,
            self.fragments,
            None,
            self.operation,
            None,  # type: ignore[arg-type]
            None,
            inspect.isawaitable,  # type: ignore[arg-type]
            None,
            None,  # type: ignore[arg-type]
        )
        possible = self.core.get_possible_types(type_)
        by_name = {each.name: (each, self.object(each, nodes)) for each in possible}
        # The type the schema resolved for each Python class, reused while that type's
        # own is_type_of still claims the value: the schema's resolvers (strawberry's
        # union resolver, graphql-core's default) answer the first possible type that
        # does, and one that tests the class answers the same for every instance.
        by_class: dict[type, tuple[GraphQLObjectType, Complete]] = {}

        def abstract(value: Any) -> Any:
            if value is None:
                return None
            known = by_class.get(type(value))
            if known is not None and known[0].is_type_of(value, None) is True:  # type: ignore[arg-type, misc]
                return known[1](value)
            runtime = resolve_type(value, info, type_)
            found = by_name.get(runtime) if isinstance(runtime, str) else None
            if found is None:
                raise Unsupported("a value of no possible type")
            if found[0].is_type_of is not None:
                by_class[type(value)] = found
            return found[1](value)

        return abstract

    def selected(
        self, type_: GraphQLObjectType, nodes: list[FieldNode]
    ) -> dict[str, list[FieldNode]]:
        """The fields the nodes' selection sets select on `type_`, by response key."""
        sets = [n.selection_set for n in nodes if n.selection_set]
        return _collect(self.core, self.fragments, type_, sets)

    def object(self, type_: GraphQLObjectType, nodes: list[FieldNode]) -> Complete:
        """An object's selected fields, in order, each read and completed."""
        selected = self.selected(type_, nodes)
        parts: list[tuple[str, Callable[[Any], Any] | None, Complete | str]] = []
        for key, field_nodes in selected.items():
            name = field_nodes[0].name.value
            if name == "__typename":
                parts.append((key, None, type_.name))
                continue
            definition = type_.fields.get(name)
            if definition is None or definition.args:
                raise Unsupported(f"{type_.name}.{name}: a field with arguments")
            read = self.reader(type_, name)
            parts.append((key, read, self.value(definition.type, field_nodes, type_, name)))
        is_type_of = type_.is_type_of

        def complete(value: Any) -> Any:
            if value is None:
                return None
            if is_type_of is not None and is_type_of(value, None) is not True:  # type: ignore[arg-type]
                raise Unsupported("not of its type")
            out = {}
            for key, read, then in parts:
                if read is None:
                    out[key] = then
                else:
                    out[key] = then(read(value))  # type: ignore[operator]
            return out

        return complete

    def reader(self, type_: GraphQLObjectType, name: str) -> Callable[[Any], Any]:
        """How strawberry reads a field off its parent: the attribute, or a resolver
        that takes only the parent (`root`)."""
        field = self.schema.get_field_for_type(name, type_.name)
        if field is None or field.extensions or field.permission_classes:
            raise Unsupported(f"{type_.name}.{name}: extensions")
        resolver = field.base_resolver
        if resolver is None:
            return attrgetter(field.python_name)
        function = resolver.wrapped_func
        parameters = list(inspect.signature(function).parameters)
        if parameters != ["root"] or inspect.iscoroutinefunction(function):
            raise Unsupported(f"{type_.name}.{name}: a resolver")

        def read(value: Any) -> Any:
            out = function(value)
            if inspect.isawaitable(out):  # pragma: no cover - checked above
                raise Unsupported("an awaitable")
            return out

        return read

    # --- a redaction's data (api/usecases/table.py's Redacted) ---------------------------
    #
    # A table row answers JSON-ready data its redaction made, which GraphQL's path types
    # into the row's result model (pydantic, every field of it) and then completes. A plan
    # completes the data itself, reading only the fields the document selects, with what
    # typing it would have done made explicit: a key left out is the field's default; a
    # union's member is the one its discriminator names, or the one member whose fields
    # (every model `extra="forbid"`) the keys fit; a map is its entries. A piece it does
    # not read natively (a set, an Enum class, a validator) is typed by pydantic first and
    # completed as a typed value is. VERIFY checks every answer against strawberry's.

    def data_root(self, type_: GraphQLOutputType, nodes: list[FieldNode]) -> Complete | None:
        """The completion of a root field's Redacted data: its one possible type a model
        made (a row's `<Result>Payload`: the result, or a Problem); None without one."""
        while isinstance(type_, GraphQLNonNull):
            type_ = type_.of_type
        if is_abstract_type(type_):
            possible = list(self.core.get_possible_types(type_))
        elif isinstance(type_, GraphQLObjectType):
            possible = [type_]
        else:
            return None
        made = [(each, _model(each)) for each in possible]
        found = [(each, model) for each, model in made if model is not None]
        if len(found) != 1:
            return None
        try:
            return self.data_object(found[0][0], nodes, found[0][1])
        except Unsupported:
            return None

    def data(
        self,
        type_: GraphQLOutputType,
        nodes: list[FieldNode],
        parent: GraphQLObjectType,
        name: str,
        annotation: Any,
    ) -> Complete:
        """Completes a field's data as its typed value would complete, by the field's
        pydantic annotation."""
        bare, meta = _bare(annotation)
        if isinstance(type_, GraphQLNonNull):
            of_type = type_.of_type
            if isinstance(of_type, GraphQLScalarType | GraphQLEnumType) and _plain_leaf(bare):
                return _leaf(of_type, non_null=True)
            inner = self.data(of_type, nodes, parent, name, annotation)

            def non_null(value: Any) -> Any:
                if value is None:
                    raise Unsupported("null for a non-null field")
                return inner(value)

            return non_null
        origin = typing.get_origin(bare)
        if isinstance(type_, GraphQLList) and origin in (list, tuple):
            items = [a for a in typing.get_args(bare) if a is not Ellipsis]
            if len(items) == 1 and (origin is list or Ellipsis in typing.get_args(bare)):
                item = self.data(type_.of_type, nodes, parent, name, items[0])

                def listed(value: Any) -> Any:
                    if value is None:
                        return None
                    if type(value) is not list:
                        raise Unsupported("not a list")
                    return [item(each) for each in value]

                return listed
        elif isinstance(type_, GraphQLList) and origin is dict:
            key, value_type = typing.get_args(bare)
            if key is str:
                return self.data_entries(type_.of_type, nodes, value_type)
        elif isinstance(type_, GraphQLScalarType | GraphQLEnumType):
            if _plain_leaf(bare):
                return _leaf(type_, non_null=False)
        elif isinstance(type_, GraphQLObjectType):
            model = _model(type_)
            if model is not None and model is bare:
                return self.data_object(type_, nodes, model)
        elif is_abstract_type(type_) and origin in (typing.Union, types.UnionType):
            return self.data_abstract(type_, nodes, bare, meta)
        # Any other piece is typed by pydantic (as its model types it), then completed.
        try:
            adapter: TypeAdapter[Any] = TypeAdapter(annotation)
        except Exception as exc:  # an annotation pydantic reads only inside its model
            raise Unsupported(f"{parent.name}.{name}: {exc}") from exc
        then = self.value(type_, nodes, parent, name)
        return lambda value: then(adapter.validate_python(value))

    def data_object(
        self, type_: GraphQLObjectType, nodes: list[FieldNode], model: type[BaseModel]
    ) -> Complete:
        """An object's selected fields from its data (a dict of the model's fields)."""
        if _decorated(model):
            raise Unsupported(f"{model.__name__}: validators")
        selected = self.selected(type_, nodes)
        parts: list[tuple[str, str | None, Any, Complete | str]] = []
        for key, field_nodes in selected.items():
            name = field_nodes[0].name.value
            if name == "__typename":
                parts.append((key, None, None, type_.name))
                continue
            definition = type_.fields.get(name)
            field = self.schema.get_field_for_type(name, type_.name)
            if definition is None or definition.args or field is None:
                raise Unsupported(f"{type_.name}.{name}: a field with arguments")
            if field.extensions or field.permission_classes:
                raise Unsupported(f"{type_.name}.{name}: extensions")
            info = model.model_fields.get(field.python_name)
            if info is None or info.alias is not None or info.validation_alias is not None:
                raise Unsupported(f"{type_.name}.{name}: not a model field read by its name")
            bare, _ = _bare(info.annotation)
            if field.base_resolver is not None and typing.get_origin(bare) is not dict:
                raise Unsupported(f"{type_.name}.{name}: a resolver")  # a map's is its entries
            default = (
                _MISSING if info.is_required() else info.get_default(call_default_factory=True)
            )
            then = self.data(definition.type, field_nodes, type_, name, info.annotation)
            parts.append((key, field.python_name, default, then))

        def complete(value: Any) -> Any:
            if value is None:
                return None
            if type(value) is not dict:
                raise Unsupported("not an object's data")
            out = {}
            for key, python, default, then in parts:
                if python is None:
                    out[key] = then
                    continue
                found = value.get(python, _MISSING)
                if found is _MISSING:
                    if default is _MISSING:
                        raise Unsupported("a required field left out")
                    found = default
                out[key] = then(found)  # type: ignore[operator]
            return out

        return complete

    def data_entries(
        self, type_: GraphQLOutputType, nodes: list[FieldNode], value_type: Any
    ) -> Complete:
        """A map's data (`dict[str, V]`) as GraphQL shows it: its `{key value}` entries,
        in the map's order (api/graphql/generate.py's `_entries`)."""
        entry = type_.of_type if isinstance(type_, GraphQLNonNull) else type_
        if not isinstance(entry, GraphQLObjectType) or set(entry.fields) != {"key", "value"}:
            raise Unsupported("not a map's entries")
        selected = self.selected(entry, nodes)
        parts: list[tuple[str, int, Complete | str]] = []
        for key, field_nodes in selected.items():
            name = field_nodes[0].name.value
            if name == "__typename":
                parts.append((key, -1, entry.name))
            elif name == "key":
                parts.append(
                    (key, 0, self.value(entry.fields[name].type, field_nodes, entry, name))
                )
            else:
                definition = entry.fields[name]
                then = self.data(definition.type, field_nodes, entry, name, value_type)
                parts.append((key, 1, then))

        def entries(value: Any) -> Any:
            if value is None:
                return None
            if type(value) is not dict:
                raise Unsupported("not a map")
            out = []
            for pair in value.items():
                one = {}
                for key, at, then in parts:
                    one[key] = then if at < 0 else then(pair[at])  # type: ignore[operator]
                out.append(one)
            return out

        return entries

    def data_abstract(
        self, type_: Any, nodes: list[FieldNode], union: Any, meta: list[Any]
    ) -> Complete:
        """A union's data: the member its discriminator names (by its `Tag`), or else the
        one member whose fields its keys fit (every required one given, none undeclared:
        the only one pydantic can validate it as)."""
        by_model = {_model(each): each for each in self.core.get_possible_types(type_)}
        members: list[tuple[type[BaseModel], list[Any]]] = []
        for member in typing.get_args(union):
            bare, member_meta = _bare(member)
            if bare not in by_model:  # not a model, or one no possible type was made of
                raise Unsupported("a union member of no possible type")
            members.append((bare, member_meta))
        completes = {model: self.data_object(by_model[model], nodes, model) for model, _ in members}
        chosen = [m for m in meta if isinstance(m, Discriminator)]
        if chosen:
            pick: Any = chosen[0].discriminator
            tags: dict[Any, Complete] = {}
            for model, member_meta in members:
                tag = [m.tag for m in member_meta if isinstance(m, Tag)]
                if not callable(pick) or len(tag) != 1:
                    raise Unsupported("a discriminator this does not read")
                tags[tag[0]] = completes[model]

            def tagged(value: Any) -> Any:
                if value is None:
                    return None
                found = tags.get(pick(value))
                if found is None:
                    raise Unsupported("no member of that tag")
                return found(value)

            return tagged
        if any(model.model_config.get("extra") != "forbid" for model, _ in members):
            raise Unsupported("a member that may take keys it does not declare")
        shapes = [
            (
                frozenset(n for n, f in model.model_fields.items() if f.is_required()),
                frozenset(model.model_fields),
                completes[model],
            )
            for model, _ in members
        ]

        # The member a shape fits, by the data's keys in order: a view's keys come in
        # the one order its code writes them, so a few shapes answer every request.
        fitted: dict[tuple[str, ...], Callable[[Any], Any]] = {}

        def shaped(value: Any) -> Any:
            if value is None:
                return None
            if type(value) is not dict:
                raise Unsupported("not an object's data")
            names = tuple(value)
            then = fitted.get(names)
            if then is None:
                keys = value.keys()
                found = [then for required, every, then in shapes if required <= keys <= every]
                if len(found) != 1:
                    raise Unsupported("data of no one member's shape")
                then = found[0]
                if len(fitted) < _SHAPES_KEPT:
                    fitted[names] = then
            return then(value)

        return shaped


_SHAPES_KEPT = 64  # key orders a union's completer remembers the member of


_MISSING: Any = object()


def _model(type_: GraphQLObjectType) -> type[BaseModel] | None:
    """The model a generated object type was made of (api/graphql/generate.py)."""
    definition = (type_.extensions or {}).get(DEFINITION_BACKREF)
    return model_of(getattr(definition, "origin", None))


def _decorated(model: type[BaseModel]) -> bool:
    """Whether pydantic runs code of the model's own on its fields (validators,
    serializers, computed fields): its data is then not what its typed value reads."""
    found = model.__pydantic_decorators__
    return any(
        (
            found.validators,
            found.field_validators,
            found.root_validators,
            found.model_validators,
            found.field_serializers,
            found.model_serializers,
            found.computed_fields,
        )
    )


def _bare(annotation: Any) -> tuple[Any, list[Any]]:
    """An annotation without `Annotated` (its metadata gathered) and without `None`."""
    meta: list[Any] = []
    while True:
        origin = typing.get_origin(annotation)
        if origin is typing.Annotated:
            meta += annotation.__metadata__
            annotation = typing.get_args(annotation)[0]
        elif origin in (typing.Union, types.UnionType) and type(None) in typing.get_args(
            annotation
        ):
            rest = tuple(a for a in typing.get_args(annotation) if a is not type(None))
            annotation = rest[0] if len(rest) == 1 else typing.Union[rest]  # noqa: UP007
        else:
            return annotation, meta


# graphql-core's scalars, each with the type of the values it serializes as they are
# (an Int only within 32 bits; a Float checks that it is finite, so it is left out): a
# leaf's data of that type is its own answer.
_AS_THEY_ARE: dict[GraphQLScalarType, type] = {
    GraphQLString: str,
    GraphQLBoolean: bool,
    GraphQLInt: int,
    GraphQLID: str,
}
_INT_BOUND = 2**31


def _leaf(type_: GraphQLScalarType | GraphQLEnumType, non_null: bool) -> Complete:
    """A leaf's value (or data) serialized by its type, for values it would accept; the
    values its scalar would give back unchanged passed through without the call."""
    serialize = type_.serialize
    same = _AS_THEY_ARE.get(type_) if isinstance(type_, GraphQLScalarType) else None
    bounded = same is int

    def leaf(value: Any) -> Any:
        if type(value) is same and (not bounded or -_INT_BOUND <= value < _INT_BOUND):  # type: ignore[operator]
            return value
        if value is None:
            if non_null:
                raise Unsupported("null for a non-null field")
            return None
        out = serialize(value)
        if out is None or out is Undefined:
            raise Unsupported("a value that does not serialize")
        return out

    return leaf


def _plain_leaf(annotation: Any) -> bool:
    """A leaf's annotation whose data is its typed value: a plain scalar, a `Literal` of
    strings or ints, or free-form JSON (`Any`)."""
    if annotation in (str, int, float, bool) or annotation is Any:
        return True
    return typing.get_origin(annotation) is typing.Literal and all(
        type(a) in (str, int) for a in typing.get_args(annotation)
    )
