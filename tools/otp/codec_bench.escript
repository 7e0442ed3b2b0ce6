#!/usr/bin/env escript
%% -*- erlang -*-
%%! -noshell
%% Times Erlang/OTP megaco's codecs over a corpus directory, the way OTP's
%% megaco_codec_meas reports them: for each codec configuration, the mean
%% over messages of the per-message mean encode and decode time (µs) and
%% the mean encoded size.
%%
%% usage: codec_bench.escript CORPUS_DIR [SECONDS_PER_MESSAGE] [CONFIG...]
%% CONFIG names: ber ber_native per per_native compact pretty compact_flex pretty_flex
%% Output: one tab-separated line per configuration:
%%   otp  CONFIG  MESSAGES  MEAN_SIZE  ENCODE_US  DECODE_US
main([Dir]) -> main([Dir, "0.002"]);
main([Dir, Secs | Configs0]) ->
    Configs = case Configs0 of
                  [] -> ["ber_native", "ber", "per_native", "per"];
                  _ -> Configs0
              end,
    Budget = list_to_float(Secs),
    Files = lists:sort(filelib:wildcard(filename:join(Dir, "*.ber"))),
    Versions = manifest(filename:join(Dir, "MANIFEST.tsv")),
    Msgs = [load(F, Versions) || F <- Files],
    lists:foreach(fun(C) -> run(C, Msgs, Budget) end, Configs);
main(_) ->
    io:format(standard_error, "usage: codec_bench.escript CORPUS_DIR [SECONDS] [CONFIG...]~n", []),
    halt(2).

%% A message: its version (from MANIFEST.tsv: OTP's dynamic binary decode
%% always assumes v1) and its decoded term (from the BER file, through
%% OTP's own decoder, so every configuration encodes the same message).
load(File, Versions) ->
    {ok, Bin} = file:read_file(File),
    V = maps:get(filename:basename(File, ".ber"), Versions),
    {ok, M} = megaco_ber_encoder:decode_message([{version3, v3}], V, Bin),
    {File, V, M}.

manifest(Path) ->
    {ok, Text} = file:read_file(Path),
    Lines = tl(binary:split(Text, <<"\n">>, [global, trim_all])),
    maps:from_list([begin
                        [Name, V | _] = binary:split(L, <<"\t">>, [global]),
                        {binary_to_list(Name), binary_to_integer(V)}
                    end || L <- Lines]).

config("ber") -> {megaco_ber_encoder, []};
config("ber_native") -> {megaco_ber_encoder, [native]};
config("per") -> {megaco_per_encoder, []};
config("per_native") -> {megaco_per_encoder, [native]};
config("compact") -> {megaco_compact_text_encoder, []};
config("pretty") -> {megaco_pretty_text_encoder, []};
config("compact_flex") -> {megaco_compact_text_encoder, [flex_scanner()]};
config("pretty_flex") -> {megaco_pretty_text_encoder, [flex_scanner()]}.

flex_scanner() ->
    {ok, Conf} = megaco_flex_scanner:start(),
    Conf.

run(Name, Msgs, Budget) ->
    {Mod, EC0} = config(Name),
    EC = [{version3, v3} | EC0],
    Rows = [one(Mod, EC, V, M, Budget) || {_, V, M} <- Msgs],
    N = length(Rows),
    Size = lists:sum([S || {S, _, _} <- Rows]) / N,
    Enc = lists:sum([E || {_, E, _} <- Rows]) / N,
    Dec = lists:sum([D || {_, _, D} <- Rows]) / N,
    io:format("otp\t~s\t~b\t~.1f\t~.3f\t~.3f~n", [Name, N, Size, Enc, Dec]).

%% For native configurations the message must be in OTP's binary form:
%% take it from a native decode of the message's own encoding.
one(Mod, EC, V, M0, Budget) ->
    M = case lists:member(native, EC) of
            true ->
                {ok, B0} = megaco_ber_encoder:encode_message([{version3, v3}], V, M0),
                {ok, MN} = megaco_ber_encoder:decode_message([{version3, v3}, native], V, B0),
                MN;
            false -> M0
        end,
    {ok, Bin} = Mod:encode_message(EC, V, M),
    EncUs = time_it(fun() -> {ok, _} = Mod:encode_message(EC, V, M) end, Budget),
    DecUs = time_it(fun() -> {ok, _} = Mod:decode_message(EC, V, Bin) end, Budget),
    {byte_size(Bin), EncUs, DecUs}.

%% Mean µs per call: calls in batches until the time budget is used.
time_it(F, Budget) ->
    F(),
    T0 = erlang:monotonic_time(nanosecond),
    Limit = T0 + round(Budget * 1.0e9),
    loop(F, T0, Limit, 0).

loop(F, T0, Limit, N) ->
    batch(F, 20),
    Now = erlang:monotonic_time(nanosecond),
    case Now >= Limit of
        true -> (Now - T0) / ((N + 20) * 1000);
        false -> loop(F, T0, Limit, N + 20)
    end.

batch(_, 0) -> ok;
batch(F, K) -> F(), batch(F, K - 1).
