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

`VERIFY` (`DAEDALUS_VERIFY_PLANS=1`, on in the test suite) checks each plan: its
variables against `get_variable_values`, its plain arguments against strawberry's
conversion, and its answer against strawberry's path run with the resolvers' results;
a difference fails the request.
"""

from __future__ import annotations

import inspect
import os
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
    GraphQLEnumType,
    GraphQLError,
    GraphQLField,
    GraphQLInputField,
    GraphQLInputObjectType,
    GraphQLList,
    GraphQLNonNull,
    GraphQLObjectType,
    GraphQLOutputType,
    GraphQLResolveInfo,
    GraphQLScalarType,
    GraphQLSchema,
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
from graphql.pyutils import Path
from graphql.utilities.coerce_input_value import coerce_default_value, coerce_input_value
from strawberry.schema.schema_converter import GraphQLCoreConverter
from strawberry.types.arguments import StrawberryArgument, convert_arguments
from strawberry.types.unset import UNSET

from api.graphql.generate import plain

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
            # come from a body `decode_json` read, which nests at most MAX_JSON_DEPTH (64)
            # levels, and an input nests deeper than that only by the schema's own list
            # types, far under graphql-core's bound (tests/unit/api/test_graphql_plans.py).
            try:
                out = coerce_input_value(value, signature.type)
            except GraphQLError:  # an input type's own check: strawberry's `@oneOf`
                return None
            if out is Undefined:
                return None
            coerced[name] = out
        return VariableValues(sources, coerced)

    return coerce


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
        data[field.key] = field.complete(value)
    return data


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
        fields.append(
            RootField(
                key, definition, nodes[0], arguments, values, made_plain, resolve, complete, shown
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
            serialize = type_.serialize

            def leaf(value: Any) -> Any:
                if value is None:
                    return None
                out = serialize(value)
                if out is None or out is Undefined:
                    raise Unsupported("a value that does not serialize")
                return out

            return leaf
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
            sets = [n.selection_set for n in nodes if n.selection_set]
            for field_nodes in _collect(self.core, self.fragments, each, sets).values():
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

    def object(self, type_: GraphQLObjectType, nodes: list[FieldNode]) -> Complete:
        """An object's selected fields, in order, each read and completed."""
        selected = _collect(
            self.core, self.fragments, type_, [n.selection_set for n in nodes if n.selection_set]
        )
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
